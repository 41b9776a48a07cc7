/**
 * The portal home's OCS card: the caller's balance and today's queries (PORTAL_TZ day), and for
 * administrators the work waiting for them: questions with open reports, the open 未收录 entries and
 * this instance's question-bank import jobs.
 */
import { sql, type Kysely } from 'kysely';
import type { OcsHomeSummary } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { getBalance } from '../wallet/balance';

export interface ImportCounts {
  running: number;
  failed: number;
}

export async function homeSummary(
  db: Kysely<DB>,
  userId: number,
  tz: string,
  admin: { imports: ImportCounts } | null,
): Promise<OcsHomeSummary> {
  const [balance, today, waiting] = await Promise.all([
    getBalance(db, userId),
    sql<{ n: number }>`
      select count(*)::int as n from ocs_queries
       where user_id = ${userId}
         and created_at >= (now() at time zone ${tz})::date::timestamp at time zone ${tz}`.execute(db),
    admin ? reviewWork(db) : Promise.resolve(null),
  ]);
  return {
    balance,
    todayQueries: Number(today.rows[0]!.n),
    admin:
      admin && waiting
        ? { ...waiting, importsRunning: admin.imports.running, importsFailed: admin.imports.failed }
        : null,
  };
}

/** As the review queue (open filter) and the 未收录 queue count them. */
async function reviewWork(db: Kysely<DB>): Promise<{ reviewsWaiting: number; missesOpen: number }> {
  const { rows } = await sql<{ reviews: number; misses: number }>`
    select
      (select count(distinct r.question_id) from ocs_reports r join ocs_questions q on q.id = r.question_id
        where r.status = 'open')::int as reviews,
      (select count(*) from ocs_misses where status = 'open')::int as misses`.execute(db);
  const r = rows[0]!;
  return { reviewsWaiting: Number(r.reviews), missesOpen: Number(r.misses) };
}
