/**
 * The points ledger (src/contract/api/ocs.ts): its list and the CSV of the same filter. `kind` goes
 * as repeated keys (`kind=a&kind=b`), which is how Fastify reads an array.
 */
import * as api from '@/contract/api/ocs';
import type { LedgerKind } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';
import { toQueryString, urlOf } from './url';

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

/** Newest first. */
export const fetchLedger = (params: LedgerListParams, options?: RequestOptions) =>
  call(api.listLedger, { query: params }, { paramsSerializer: toQueryString, ...options });

/**
 * Where the CSV of the filtered ledger downloads from. A plain link, not a fetch: the browser sends
 * the session cookie and saves the attachment itself, however long it is.
 */
export const ledgerCsvUrl = ({ kind, from, to }: LedgerFilter): string =>
  urlOf(api.ledgerCsv, { query: { kind, from, to } });
