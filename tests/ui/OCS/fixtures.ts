/** Shared OCS test data: query log rows and ledger rows as the server sends them. */
import type { LedgerItem, LedgerKind, OcsOutcome, QueryLogItem } from '@/contract';

export function query(
  id: number,
  outcome: OcsOutcome,
  title: string,
  cost = outcome === 'bank' || outcome === 'ai' ? 1 : 0,
): QueryLogItem {
  return {
    id,
    title,
    type: 'single',
    outcome,
    cost,
    answer: outcome === 'miss' ? null : ['北京'],
    message: outcome === 'miss' ? '题库和 AI 都没有找到答案' : null,
    source: outcome === 'miss' ? null : outcome === 'ai' ? 'ai' : 'import',
    confidence: outcome === 'miss' ? null : outcome === 'ai' ? 0.7 : 0.95,
    report: null,
    createdAt: `2025-01-0${(id % 9) + 1}T04:05:00.000Z`,
  };
}

export function ledgerRow(
  id: number,
  kind: LedgerKind,
  amount: number,
  balanceAfter: number,
  memo: string,
  queryId: number | null = kind === 'charge' ? id + 100 : null,
): LedgerItem {
  return { id, kind, queryId, amount, balanceAfter, memo, createdAt: '2025-01-02T04:05:00.000Z' };
}

export function page<T>(rows: T[], total = rows.length) {
  return { success: true as const, data: rows, total, current: 1, pageSize: 10 };
}
