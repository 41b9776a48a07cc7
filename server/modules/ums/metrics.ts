/**
 * UMS metrics: the outbox's depth by status, counted in the database at each scrape (the partial
 * indexes of the due and the sending messages make it cheap; with several instances on one PostgreSQL
 * each reports the same shared outbox), and delivery results by outcome class.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DB } from '../../db/schema';
import type { DeliveryOutcome } from './delivery';

const WAITING = ['queued', 'retrying', 'sending', 'merged'] as const;

export function umsMetrics(
  registry: Registry,
  db: Kysely<DB>,
  log: FastifyBaseLogger,
): { delivery: (outcome: DeliveryOutcome) => void } {
  new Gauge({
    name: 'portal_ums_outbox_messages',
    help:
      'Messages in the outbox not yet delivered, failed or cancelled, by status (queued, retrying, sending, ' +
      'merged into a digest).',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      try {
        const { rows } = await sql<{ status: string; n: number }>`
          select status, count(*)::int as n from ums_messages where status in ('queued', 'retrying', 'merged')
           group by status
          union all
          select 'sending', count(*)::int from ums_messages where status = 'sending'`.execute(db);
        for (const status of WAITING) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      } catch (err) {
        this.reset(); // no number rather than a stale one
        log.warn({ err }, 'metrics: the ums outbox could not be counted');
      }
    },
  });
  const deliveries = new Counter({
    name: 'portal_ums_deliveries_total',
    help:
      'Delivery attempts by outcome: delivered, transient, rate_limited, permanent (as DingTalk answered), ' +
      'deferred (robot limit or throttle), channel_deleted, unconfirmed (an e-mail address not yet agreed), lost (taken over by another worker before its attempt), ' +
      'error (database or decryption).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  return { delivery: (outcome) => deliveries.inc({ outcome }) };
}
