/**
 * Typed client of the OCS free points (src/contract/ocsFree.ts): the daily claim, redeeming a code,
 * and the administrators' redeem-code batches with their one-time CSV download.
 */
import * as api from '@/contract/api/ocsFree';
import type { AnswerOf } from '@/contract/endpoint';
import type { RedeemBatchBody, RedeemBody } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';
import { urlOf } from './url';

export type FreeStatusAnswer = AnswerOf<typeof api.freeStatus>;
export type FreeClaimAnswer = AnswerOf<typeof api.claimFree>;
export type RedeemAnswer = AnswerOf<typeof api.redeem>;
export type RedeemBatchListAnswer = AnswerOf<typeof api.listRedeemBatches>;
export type RedeemBatchAnswer = AnswerOf<typeof api.createRedeemBatch>;

/** Claimed today?, the amount, when the next claim opens, the balance. */
export const fetchFreeStatus = (options?: RequestOptions) => call(api.freeStatus, {}, options);

/** 409 when already claimed today or claiming is switched off. */
export const claimFree = (options?: RequestOptions) => call(api.claimFree, {}, options);

/** 400 unknown code, 409 disabled/expired/used up/already redeemed, 429 too many wrong codes. */
export const redeemCode = (body: RedeemBody, options?: RequestOptions) => call(api.redeem, { body }, options);

/** Newest first. */
export const fetchRedeemBatches = (params: { current?: number; pageSize?: number }, options?: RequestOptions) =>
  call(api.listRedeemBatches, { query: params }, options);

export const createRedeemBatch = (body: RedeemBatchBody, options?: RequestOptions) =>
  call(api.createRedeemBatch, { body }, options);

export const disableRedeemBatch = (id: number, options?: RequestOptions) =>
  call(api.disableRedeemBatch, { params: { id } }, options);

export const redeemCodesCsvUrl = (id: number) => urlOf(api.redeemCodesCsv, { params: { id } });

/**
 * The batch's codes CSV as a Blob — works once per batch. A failure's envelope arrives as a Blob too;
 * it is parsed back so callers read errorMessage as usual.
 */
export async function downloadRedeemCodes(id: number): Promise<Blob> {
  try {
    return (await call(
      api.redeemCodesCsv,
      { params: { id } },
      { responseType: 'blob', skipErrorHandler: true },
    )) as Blob;
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
