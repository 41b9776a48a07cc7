/**
 * The portal home's UMS card: the caller's inbox at a glance (unread, failed for good, the newest few),
 * and for administrators the shared outbox: what waits, what will be retried, what failed in the last day.
 */
import { sql, type Kysely } from 'kysely';
import type { MessageStatus, UmsHomeSummary } from '../../../src/contract';
import type { DB } from '../../db/schema';

const LATEST = 5;

export async function homeSummary(db: Kysely<DB>, userId: number, isAdmin: boolean): Promise<UmsHomeSummary> {
  const [mine, latest, admin] = await Promise.all([
    db
      .selectFrom('ums_messages')
      .select([
        sql<number>`count(*) filter (where read_at is null)::int`.as('unread'),
        sql<number>`count(*) filter (where status = 'failed')::int`.as('failed'),
      ])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('ums_messages')
      .select(['id', 'title', 'status', 'created_at', 'read_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(LATEST)
      .execute(),
    isAdmin ? outbox(db) : Promise.resolve(null),
  ]);
  return {
    unread: Number(mine.unread),
    failed: Number(mine.failed),
    latest: latest.map((m) => ({
      id: m.id,
      title: m.title,
      status: m.status as MessageStatus,
      createdAt: m.created_at.toISOString(),
      read: m.read_at !== null,
    })),
    admin,
  };
}

/**
 * Every user's messages: the statuses the delivery worker still owes, and the last day's final failures
 * (a failed message's updated_at is the claim of its last attempt, moments before it failed).
 */
async function outbox(db: Kysely<DB>): Promise<NonNullable<UmsHomeSummary['admin']>> {
  const { rows } = await sql<{ waiting: number; retrying: number; failed: number }>`
    select
      (select count(*) from ums_messages where status in ('queued', 'sending', 'merged'))::int as waiting,
      (select count(*) from ums_messages where status = 'retrying')::int as retrying,
      (select count(*) from ums_messages
        where status = 'failed' and updated_at > now() - interval '24 hours')::int as failed`.execute(db);
  const r = rows[0]!;
  return { waiting: Number(r.waiting), retrying: Number(r.retrying), failedLastDay: Number(r.failed) };
}
