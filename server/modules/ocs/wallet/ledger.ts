/**
 * A user's bills (the ledger, ocs_ledger) as administrators and the user see them: filtered pages and a
 * CSV export. Days are PORTAL_TZ days.
 */
import { sql, type Kysely } from 'kysely';
import { toCsv } from '../../../lib/csv';
import { LEDGER_KIND_LABELS, type LedgerItem, type LedgerKind } from '../../../../src/contract';
import { paginate } from '../../../db/paging';
import type { DB } from '../../../db/schema';

const iso = (d: Date) => new Date(d).toISOString();

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
  query_id: number | null;
  created_at: Date;
}): LedgerItem => ({
  id: Number(r.id),
  kind: r.kind as LedgerKind,
  queryId: r.query_id == null ? null : Number(r.query_id),
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
  const { rows, total } = await paginate(ledgerBase(db, userId, q, tz), q, (b) =>
    b.select(['id', 'kind', 'amount', 'balance_after', 'memo', 'query_id', 'created_at']).orderBy('id', 'desc'),
  );
  return { rows: rows.map(toLedgerItem), total };
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
  return toCsv(
    ['时间', '类型', '金额', '余额', '说明'],
    rows.map((r) => [
      r.local_time,
      LEDGER_KIND_LABELS[r.kind as LedgerKind],
      Number(r.amount),
      Number(r.balance_after),
      r.memo,
    ]),
  );
}
