/**
 * A user's OCS overview page: balance, price, today's figures, the 30-day chart (PORTAL_TZ days), the
 * latest queries, whether the user has a token that may query, and whether the portal can answer at all
 * (a bank, an AI model: both missing on a fresh install).
 */
import { sql, type Kysely } from 'kysely';
import type { OcsOverview } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { serviceReadiness } from '../admin/setup';
import { getBalance } from '../wallet/balance';
import { toQueryItem } from './log';

export async function overview(db: Kysely<DB>, userId: number, tz: string, price: number): Promise<OcsOverview> {
  const [balance, daily, recent, token, serviceReady] = await Promise.all([
    getBalance(db, userId),
    sql<{ day: string; bank: number; ai: number; miss: number; spent: number; total: number }>`
      with days as (
        select to_char(d, 'YYYY-MM-DD') as day
        from generate_series((now() at time zone ${tz})::date - 29, (now() at time zone ${tz})::date, interval '1 day') d
      ), counts as (
        select to_char((created_at at time zone ${tz})::date, 'YYYY-MM-DD') as day,
          count(*) filter (where outcome in ('bank', 'cache')) as bank,
          count(*) filter (where outcome = 'ai') as ai,
          count(*) filter (where outcome not in ('bank', 'cache', 'ai')) as miss,
          coalesce(sum(cost), 0) as spent,
          count(*) as total
        from ocs_queries
        where user_id = ${userId} and created_at >= ((now() at time zone ${tz})::date - 29)::timestamp at time zone ${tz}
        group by 1
      )
      select days.day, coalesce(bank, 0)::int as bank, coalesce(ai, 0)::int as ai, coalesce(miss, 0)::int as miss,
        coalesce(spent, 0)::int as spent, coalesce(total, 0)::int as total
      from days left join counts using (day) order by days.day`.execute(db),
    db
      .selectFrom('ocs_queries')
      .select(['id', 'title', 'type', 'outcome', 'answer', 'cost', 'message', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(10)
      .execute(),
    db
      .selectFrom('api_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where(sql<boolean>`'ocs:query' = any(scopes)`)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .limit(1)
      .executeTakeFirst(),
    serviceReadiness(db),
  ]);
  const days = daily.rows;
  const today = days[days.length - 1]!;
  const answered = Number(today.bank) + Number(today.ai);
  return {
    balance,
    price,
    today: {
      queries: Number(today.total),
      answered,
      hitRate: Number(today.total) > 0 ? answered / Number(today.total) : 0,
      spent: Number(today.spent),
    },
    daily: days.map((d) => ({ day: d.day, bank: Number(d.bank), ai: Number(d.ai), miss: Number(d.miss) })),
    recent: recent.map(toQueryItem),
    hasToken: !!token,
    serviceReady,
  };
}
