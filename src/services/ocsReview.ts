/**
 * Typed client of OCS review (src/contract/api/ocsReview.ts): a user's report of a wrong answer;
 * the administrators' review queue and decisions, and the 未收录 queue.
 */
import * as api from '@/contract/api/ocsReview';
import type { AnswerOf } from '@/contract/endpoint';
import type {
  MissAnswerBody,
  MissListQuery,
  OcsReportBody,
  ReviewAcceptBody,
  ReviewMergeBody,
  ReviewQueueQuery,
  ReviewRejectBody,
} from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';

export type ReportContextAnswer = AnswerOf<typeof api.reportContext>;
export type ReviewQueueAnswer = AnswerOf<typeof api.reviewQueue>;
export type ReviewDetailAnswer = AnswerOf<typeof api.reviewDetail>;
export type MissListAnswer = AnswerOf<typeof api.listMisses>;

// ---------- users ----------

/** The query, the bank question it was answered from, and a report already made. */
export const fetchReportContext = (queryId: number, options?: RequestOptions) =>
  call(api.reportContext, { params: { id: queryId } }, options);

/** 400 not reportable, 409 reported already, 429 past the day's limit. */
export const createReport = (body: OcsReportBody, options?: RequestOptions) =>
  call(api.createReport, { body }, options);

// ---------- administrators: reports ----------

export const fetchReviewQueue = (query: ReviewQueueQuery, options?: RequestOptions) =>
  call(api.reviewQueue, { query }, options);

export const fetchReviewDetail = (questionId: number, options?: RequestOptions) =>
  call(api.reviewDetail, { params: { id: questionId } }, options);

export const acceptReviews = (body: ReviewAcceptBody, options?: RequestOptions) =>
  call(api.acceptReviews, { body }, options);

export const rejectReviews = (body: ReviewRejectBody, options?: RequestOptions) =>
  call(api.rejectReviews, { body }, options);

export const mergeReviews = (body: ReviewMergeBody, options?: RequestOptions) =>
  call(api.mergeReviews, { body }, options);

// ---------- administrators: the 未收录 queue ----------

export const fetchMisses = (query: MissListQuery, options?: RequestOptions) => call(api.listMisses, { query }, options);

export const answerMisses = (body: MissAnswerBody, options?: RequestOptions) =>
  call(api.answerMisses, { body }, options);

export const draftMiss = (id: number, options?: RequestOptions) => call(api.draftMiss, { params: { id } }, options);

export const dismissMisses = (ids: number[], options?: RequestOptions) =>
  call(api.dismissMisses, { body: { ids } }, options);
