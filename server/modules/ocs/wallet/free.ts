/**
 * The daily free claim: `freeDaily` points once per PORTAL_TZ day per user. The primary key of
 * ocs_free_claims (user, day) is the only guard, so double clicks, parallel tabs and several instances
 * all race on one insert and exactly one wins; the points are credited in the same transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { FreeClaim, FreeStatus } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { conflict } from '../../../errors';
import { credit, getBalance } from './balance';

export const FREE_DISABLED_MESSAGE = '管理员已关闭每日免费领取';
export const FREE_ALREADY_MESSAGE = '今天已经领取过了，明天再来吧';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Today's day and the next local midnight, both from the database clock in `tz`. */
function today(tz: string) {
  return {
    day: sql<string>`to_char((now() at time zone ${tz})::date, 'YYYY-MM-DD')`,
    next: sql<Date>`(date_trunc('day', now() at time zone ${tz}) + interval '1 day') at time zone ${tz}`,
  };
}

export async function freeStatus(db: Kysely<DB>, userId: number, amount: number, tz: string): Promise<FreeStatus> {
  const t = today(tz);
  const r = await sql<{ claimed: number | null; next: Date; now: Date }>`
    select (select amount from ocs_free_claims where user_id = ${userId} and day = (now() at time zone ${tz})::date) as claimed,
      ${t.next} as next, now() as now`.execute(db);
  const row = r.rows[0]!;
  return {
    amount,
    enabled: amount > 0,
    claimedToday: row.claimed != null,
    claimedAmount: row.claimed == null ? null : Number(row.claimed),
    nextClaimAt: iso(row.next),
    serverTime: iso(row.now),
    balance: await getBalance(db, userId),
  };
}

export async function claimFree(db: Kysely<DB>, userId: number, amount: number, tz: string): Promise<FreeClaim> {
  if (amount <= 0) throw conflict(FREE_DISABLED_MESSAGE);
  const t = today(tz);
  return db.transaction().execute(async (trx) => {
    const ins = await sql<{ day: string; next: Date }>`
      insert into ocs_free_claims (user_id, day, amount)
      values (${userId}, (now() at time zone ${tz})::date, ${amount})
      on conflict (user_id, day) do nothing
      returning ${t.day} as day, ${t.next} as next`.execute(trx);
    const row = ins.rows[0];
    if (!row) throw conflict(FREE_ALREADY_MESSAGE);
    const { balance } = await credit(trx, userId, 'free', amount, `每日免费领取（${row.day}）`);
    return { amount, balance, nextClaimAt: iso(row.next) };
  });
}
