/**
 * The embedded database's autovacuum (server/db/maintenance.ts) as a background job: every
 * DB_MAINTENANCE_MS on PGlite; nothing on PostgreSQL, whose own autovacuum does it. A round after a
 * busy interval (the database in use more than BUSY_SHARE of the time since the previous round) lets
 * the work on large tables wait (maintain(): at most MAX_DEFER_MS).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { Counter } from 'prom-client';
import { maintain } from '../db/maintenance';
import { poolStatsOf } from '../db/pool-stats';
import type { DB } from '../db/schema';

/** Above this share of the time in use, the database is serving a burst: large tables' work waits. */
export const BUSY_SHARE = 0.25;

export interface MaintenanceOptions {
  db: Kysely<DB>;
  /** DB_MAINTENANCE_MS; 0 turns it off. */
  everyMs: number;
}

export default fp(
  async function maintenancePlugin(app: FastifyInstance, opts: MaintenanceOptions) {
    if (opts.everyMs === 0 || poolStatsOf(opts.db)?.().kind !== 'pglite') return;
    const registers = [app.metrics];
    const runs = new Counter({
      name: 'portal_db_maintenance_total',
      help: 'VACUUM and ANALYZE statements run on the embedded database by its maintenance job, by kind.',
      labelNames: ['work'],
      registers,
    });
    const seconds = new Counter({
      name: 'portal_db_maintenance_seconds_total',
      help: 'Time the embedded database spent in its maintenance job (other statements wait meanwhile).',
      registers,
    });
    // Busy: the database was in use more than BUSY_SHARE of the time since the previous round.
    const stats = poolStatsOf(opts.db)!;
    const inUse = () => {
      const s = stats();
      return s.kind === 'pglite' ? s.inUseMs : 0;
    };
    let last = { at: performance.now(), inUse: inUse() };
    const waiting = new Map<string, number>();
    app.scheduler.every('db.maintenance', opts.everyMs, async () => {
      const now = { at: performance.now(), inUse: inUse() };
      const share = (now.inUse - last.inUse) / Math.max(1, now.at - last.at);
      last = now;
      for (const d of await maintain(opts.db, { busy: () => share > BUSY_SHARE, waiting })) {
        runs.inc({ work: d.work });
        seconds.inc(d.ms / 1000);
        app.log.info({ table: d.table, work: d.work, ms: d.ms }, 'database maintenance');
      }
    });
  },
  { name: 'db-maintenance', dependencies: ['scheduler', 'metrics'] },
);
