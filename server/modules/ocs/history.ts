/**
 * What a user sees of their own OCS use: the overview figures and 30-day chart, their query history,
 * and their bills (the ledger) with filters and a CSV export. Days are PORTAL_TZ days.
 */
import { sql, type Kysely } from 'kysely';
import Papa from 'papaparse';
import {
  LEDGER_KIND_LABELS,
  type LedgerItem,
  type LedgerKind,
  type OcsOutcome,
  type OcsOverview,
  type QueryLogItem,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { getBalance } from './wallet';

const iso = (d: Date) => new Date(d).toISOString();

function toQueryItem(r: {
  id: number;
  title: string;
  type: string;
  outcome: string;
  answer: string | null;
  cost: number;
  message: string | null;
  created_at: Date;
}): QueryLogItem {
  return {
    id: Number(r.id),
    title: r.title,
    type: r.type,
    outcome: r.outcome as OcsOutcome,
    answer: r.answer,
    cost: Number(r.cost),
    message: r.message,
    createdAt: iso(r.created_at),
  };
}

export async function listQueries(
  db: Kysely<DB>,
  userId: number,
  q: { current: number; pageSize: number; outcome?: OcsOutcome },
): Promise<{ rows: QueryLogItem[]; total: number }> {
  let base = db.selectFrom('ocs_queries').where('user_id', '=', userId);
  if (q.outcome) base = base.where('outcome', '=', q.outcome);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'title', 'type', 'outcome', 'answer', 'cost', 'message', 'created_at'])
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toQueryItem), total: Number(count.n) };
}

export async function overview(db: Kysely<DB>, userId: number, tz: string, price: number): Promise<OcsOverview> {
  const [balance, daily, recent, token] = await Promise.all([
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
  };
}

export interface LedgerFilter {
  kind?: LedgerKind | LedgerKind[];
  from?: string;
  to?: string;
}

function ledgerBase(db: Kysely<DB>, userId: number, f: LedgerFilter, tz: string) {
  let base = db.selectFrom('ocs_ledger').where('user_id', '=', userId);
  const kinds = f.kind === undefined ? [] : ([] as LedgerKind[]).concat(f.kind);
  if (kinds.length) base = base.where('kind', 'in', kinds);
  if (f.from) base = base.where('created_at', '>=', sql<Date>`(${f.from}::date)::timestamp at time zone ${tz}`);
  if (f.to) base = base.where('created_at', '<', sql<Date>`(${f.to}::date + 1)::timestamp at time zone ${tz}`);
  return base;
}

const toLedgerItem = (r: {
  id: number;
  kind: string;
  amount: number;
  balance_after: number;
  memo: string;
  created_at: Date;
}): LedgerItem => ({
  id: Number(r.id),
  kind: r.kind as LedgerKind,
  amount: Number(r.amount),
  balanceAfter: Number(r.balance_after),
  memo: r.memo,
  createdAt: iso(r.created_at),
});

export async function listLedger(
  db: Kysely<DB>,
  userId: number,
  q: LedgerFilter & { current: number; pageSize: number },
  tz: string,
): Promise<{ rows: LedgerItem[]; total: number }> {
  const base = ledgerBase(db, userId, q, tz);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'kind', 'amount', 'balance_after', 'memo', 'created_at'])
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toLedgerItem), total: Number(count.n) };
}

/** The filtered bills as CSV (UTF-8 with BOM so Excel reads the Chinese), newest first, at most 100k rows. */
export async function ledgerCsv(db: Kysely<DB>, userId: number, f: LedgerFilter, tz: string): Promise<string> {
  const rows = await ledgerBase(db, userId, f, tz)
    .select([
      'id',
      'kind',
      'amount',
      'balance_after',
      'memo',
      sql<string>`to_char(created_at at time zone ${tz}, 'YYYY-MM-DD HH24:MI:SS')`.as('local_time'),
    ])
    .orderBy('id', 'desc')
    .limit(100_000)
    .execute();
  const csv = Papa.unparse(
    {
      fields: ['时间', '类型', '金额', '余额', '说明'],
      // A leading = + - @ would make a spreadsheet evaluate the memo (a question title) as a formula.
      data: rows.map((r) => [
        r.local_time,
        LEDGER_KIND_LABELS[r.kind as LedgerKind],
        Number(r.amount),
        Number(r.balance_after),
        r.memo,
      ]),
    },
    { escapeFormulae: true },
  );
  return `\ufeff${csv}`;
}
