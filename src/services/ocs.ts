/**
 * Typed client of the portal side of OCS (src/contract/ocs.ts): the overview, the points wallet and
 * its ledger (with the CSV export), the user's query history and the ask form.
 */
// Type-only imports: the schemas stay out of the bundle unless a page needs them.
import type {
  AskBody,
  AskResponse,
  LedgerKind,
  LedgerListResponse,
  OcsOutcome,
  OcsOverviewResponse,
  QueryListResponse,
  WalletResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type OcsOverviewAnswer = z.infer<typeof OcsOverviewResponse>;
export type WalletAnswer = z.infer<typeof WalletResponse>;
export type LedgerListAnswer = z.infer<typeof LedgerListResponse>;
export type QueryListAnswer = z.infer<typeof QueryListResponse>;
export type AskAnswer = z.infer<typeof AskResponse>;

/** The ledger filter shared by the list and its CSV export; days are YYYY-MM-DD in the portal's zone, inclusive. */
export interface LedgerFilter {
  kind?: LedgerKind[];
  from?: string;
  to?: string;
}
export interface LedgerListParams extends LedgerFilter {
  current?: number;
  pageSize?: number;
}
export interface QueryListParams {
  current?: number;
  pageSize?: number;
  outcome?: OcsOutcome;
}

/**
 * Arrays as repeated keys (`kind=charge&kind=free`), which is what the server reads; axios would
 * send `kind[]=…`. Empty values are left out so an unset filter does not become `from=`.
 */
export function toQueryString(params: object): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== '') q.append(key, String(v));
    }
  }
  return q.toString();
}

/** GET /api/ocs/overview — balance, today's numbers, 30 days by outcome, the latest queries. */
export function fetchOcsOverview(options?: RequestOptions) {
  return request<OcsOverviewAnswer>('/api/ocs/overview', { method: 'GET', ...options });
}

/** GET /api/ocs/wallet — balance and the price of one answer, in points. */
export function fetchWallet(options?: RequestOptions) {
  return request<WalletAnswer>('/api/ocs/wallet', { method: 'GET', ...options });
}

/** GET /api/ocs/ledger — newest first. */
export function fetchLedger(params: LedgerListParams, options?: RequestOptions) {
  return request<LedgerListAnswer>('/api/ocs/ledger', {
    method: 'GET',
    params,
    paramsSerializer: toQueryString,
    ...options,
  });
}

/**
 * Where the CSV of the filtered ledger downloads from (GET /api/ocs/ledger.csv). A plain link, not a
 * fetch: the browser sends the session cookie and saves the attachment itself, however long it is.
 */
export function ledgerCsvUrl({ kind, from, to }: LedgerFilter): string {
  const qs = toQueryString({ kind, from, to });
  return qs ? `/api/ocs/ledger.csv?${qs}` : '/api/ocs/ledger.csv';
}

/** GET /api/ocs/queries — the user's own queries (OCS script and ask form), newest first. */
export function fetchQueries(params: QueryListParams, options?: RequestOptions) {
  return request<QueryListAnswer>('/api/ocs/queries', { method: 'GET', params, ...options });
}

/** POST /api/ocs/ask — `data` is the OCS result (`code` 1 with the answer, or 0 with `msg`); 429 when too fast. */
export function askQuestion(body: AskBody, options?: RequestOptions) {
  return request<AskAnswer>('/api/ocs/ask', { method: 'POST', data: body, ...options });
}
