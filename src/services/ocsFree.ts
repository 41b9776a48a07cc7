/**
 * Typed client of the OCS free points (src/contract/ocsFree.ts): the daily claim, redeeming a code,
 * and the administrators' redeem-code batches with their one-time CSV download.
 */
// Type-only imports: the schemas stay out of the bundle unless a page needs them.
import type {
  FreeClaimResponse,
  FreeStatusResponse,
  RedeemBatchBody,
  RedeemBatchListResponse,
  RedeemBatchResponse,
  RedeemBody,
  RedeemResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type FreeStatusAnswer = z.infer<typeof FreeStatusResponse>;
export type FreeClaimAnswer = z.infer<typeof FreeClaimResponse>;
export type RedeemAnswer = z.infer<typeof RedeemResponse>;
export type RedeemBatchListAnswer = z.infer<typeof RedeemBatchListResponse>;
export type RedeemBatchAnswer = z.infer<typeof RedeemBatchResponse>;

/** GET /api/ocs/free — claimed today?, the amount, when the next claim opens, the balance. */
export function fetchFreeStatus(options?: RequestOptions) {
  return request<FreeStatusAnswer>('/api/ocs/free', { method: 'GET', ...options });
}

/** POST /api/ocs/free/claim — 409 when already claimed today or claiming is switched off. */
export function claimFree(options?: RequestOptions) {
  return request<FreeClaimAnswer>('/api/ocs/free/claim', { method: 'POST', ...options });
}

/** POST /api/ocs/redeem — 400 unknown code, 409 disabled/expired/used up/already redeemed, 429 too many wrong codes. */
export function redeemCode(body: RedeemBody, options?: RequestOptions) {
  return request<RedeemAnswer>('/api/ocs/redeem', { method: 'POST', data: body, ...options });
}

/** GET /api/ocs/admin/redeem-batches — newest first. */
export function fetchRedeemBatches(params: { current?: number; pageSize?: number }, options?: RequestOptions) {
  return request<RedeemBatchListAnswer>('/api/ocs/admin/redeem-batches', { method: 'GET', params, ...options });
}

/** POST /api/ocs/admin/redeem-batches */
export function createRedeemBatch(body: RedeemBatchBody, options?: RequestOptions) {
  return request<RedeemBatchAnswer>('/api/ocs/admin/redeem-batches', { method: 'POST', data: body, ...options });
}

/** POST /api/ocs/admin/redeem-batches/:id/disable */
export function disableRedeemBatch(id: number, options?: RequestOptions) {
  return request<RedeemBatchAnswer>(`/api/ocs/admin/redeem-batches/${id}/disable`, { method: 'POST', ...options });
}

export const redeemCodesCsvUrl = (id: number) => `/api/ocs/admin/redeem-batches/${id}/codes.csv`;

/**
 * GET /api/ocs/admin/redeem-batches/:id/codes.csv as a Blob — works once per batch. A failure's
 * envelope arrives as a Blob too; it is parsed back so callers read errorMessage as usual.
 */
export async function downloadRedeemCodes(id: number): Promise<Blob> {
  try {
    return await request<Blob>(redeemCodesCsvUrl(id), { method: 'GET', responseType: 'blob', skipErrorHandler: true });
  } catch (error) {
    const response = (error as { response?: { data?: unknown } }).response;
    if (response && typeof Blob !== 'undefined' && response.data instanceof Blob) {
      try {
        response.data = JSON.parse(await response.data.text());
      } catch {
        // Not JSON: the status line speaks for itself.
      }
    }
    throw error;
  }
}
