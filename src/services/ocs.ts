/**
 * Typed client of the portal side of OCS (src/contract/ocs.ts): the overview, the points wallet and
 * its ledger (with the CSV export), the user's query history and the ask form.
 */
import * as api from '@/contract/api/ocs';
import type { AnswerOf } from '@/contract/endpoint';
import type { AskBody, LedgerKind, OcsOutcome } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';
import { toQueryString, urlOf } from './url';

export type OcsOverviewAnswer = AnswerOf<typeof api.overview>;
export type WalletAnswer = AnswerOf<typeof api.wallet>;
export type LedgerListAnswer = AnswerOf<typeof api.listLedger>;
export type QueryListAnswer = AnswerOf<typeof api.listQueries>;
export type AskAnswer = AnswerOf<typeof api.ask>;

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

/** Balance, today's numbers, 30 days by outcome, the latest queries. */
export const fetchOcsOverview = (options?: RequestOptions) => call(api.overview, {}, options);

/** Balance and the price of one answer, in points. */
export const fetchWallet = (options?: RequestOptions) => call(api.wallet, {}, options);

/** Newest first; `kind` goes as repeated keys (toQueryString). */
export const fetchLedger = (params: LedgerListParams, options?: RequestOptions) =>
  call(api.listLedger, { query: params }, { paramsSerializer: toQueryString, ...options });

/**
 * Where the CSV of the filtered ledger downloads from. A plain link, not a fetch: the browser sends
 * the session cookie and saves the attachment itself, however long it is.
 */
export const ledgerCsvUrl = ({ kind, from, to }: LedgerFilter): string =>
  urlOf(api.ledgerCsv, { query: { kind, from, to } });

/** The user's own queries (OCS script and ask form), newest first. */
export const fetchQueries = (params: QueryListParams, options?: RequestOptions) =>
  call(api.listQueries, { query: params }, options);

/** `data` is the OCS result (`code` 1 with the answer, or 0 with `msg`); 429 when too fast. */
export const askQuestion = (body: AskBody, options?: RequestOptions) => call(api.ask, { body }, options);
