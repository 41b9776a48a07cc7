/**
 * OCS review HTTP shapes: a user's report of a wrong answer and its outcome; the
 * administrators' review queue (questions with reports, what was proposed, the question's history),
 * accepting, rejecting and merging; and the 未收录 queue of questions that found no answer.
 */
import { z } from 'zod';
import { ok, page, PageQuery } from './common';
import { OCS_OPTIONS_MAX, OcsReportStatus, QueryLogItem } from './ocs';
import { BankQuestion, BankType } from './ocsAdmin';

const Iso = z.string();
const Id = z
  .number({ error: '编号无效' })
  .int('编号无效')
  .positive('编号无效')
  .max(2 ** 53 - 1, '编号无效');

const Answer = z
  .array(z.string().max(4000, '答案过长'))
  .min(1, '请填写答案')
  .max(OCS_OPTIONS_MAX * 4, '答案过多');
const Reason = z.string().trim().max(500, '说明不能超过 500 个字符');

// ---------- users ----------

/** Reporting an answer of one's own query history as wrong. */
export const OcsReportBody = z.object({
  queryId: Id,
  /**
   * What the user believes is right: option letters or texts (several joined with #, or a JSON array of
   * texts, which keeps a `#` inside one), 正确/错误, blanks.
   */
  proposed: z.string().trim().max(4000, '建议答案过长').optional(),
  reason: Reason.optional(),
});
export type OcsReportBody = z.input<typeof OcsReportBody>;

export const OcsMyReport = z.object({
  id: z.number().int(),
  queryId: z.number().int(),
  status: OcsReportStatus,
  /** As the bank would store it (option texts). */
  proposed: z.array(z.string()).nullable(),
  reason: z.string(),
  /** Points given back when the report was accepted. */
  refunded: z.number().int(),
  resolution: z.string().nullable(),
  createdAt: Iso,
  resolvedAt: Iso.nullable(),
});
export type OcsMyReport = z.infer<typeof OcsMyReport>;
export const OcsReportResponse = ok(OcsMyReport);

/** What the report dialog shows: the query, the bank question it was answered from, a report made already. */
export const OcsReportContext = z.object({
  query: QueryLogItem,
  question: z
    .object({ title: z.string(), type: BankType, options: z.array(z.string()), answer: z.array(z.string()) })
    .nullable(),
  report: OcsMyReport.nullable(),
  /** Null when the answer can be reported, else why not (in Chinese). */
  refusal: z.string().nullable(),
});
export type OcsReportContext = z.infer<typeof OcsReportContext>;
export const OcsReportContextResponse = ok(OcsReportContext);
export const QueryIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
});

// ---------- administrators: the review queue ----------

export const REVIEW_FILTERS = ['open', 'resolved', 'all'] as const;
export const ReviewQueueQuery = PageQuery.extend({
  /** open: questions with reports awaiting review; resolved: only reviewed reports; all. */
  status: z.enum(REVIEW_FILTERS).default('open'),
  keyword: z.string().trim().max(200).optional(),
  disputed: z.enum(['true', 'false']).optional(),
});
export type ReviewQueueQuery = z.input<typeof ReviewQueueQuery>;

export const ReviewProposal = z.object({
  answer: z.array(z.string()),
  /** Open reports proposing it, and their weight. */
  count: z.number().int(),
  weight: z.number(),
});

export const ReviewItem = z.object({
  questionId: z.number().int(),
  title: z.string(),
  type: BankType,
  options: z.array(z.string()),
  answer: z.array(z.string()),
  /** The row's source as stored (import, manual, ai, corrected, upstream:<name>). */
  source: z.string(),
  /** What the OCS API reports as the answer's `source`. */
  provenance: z.string(),
  disputed: z.boolean(),
  openReports: z.number().int(),
  totalReports: z.number().int(),
  /** Sum of the open reports' weights (each reporter's weight falls with their rejected reports). */
  openWeight: z.number(),
  lastReportAt: Iso,
  proposals: z.array(ReviewProposal),
});
export type ReviewItem = z.infer<typeof ReviewItem>;
export const ReviewQueueResponse = page(ReviewItem);

export const ReviewReport = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  /** The answer the user was given. */
  answer: z.string(),
  proposed: z.array(z.string()).nullable(),
  reason: z.string(),
  weight: z.number(),
  status: OcsReportStatus,
  refunded: z.number().int(),
  /** Charged for the answer (what acceptance refunds). */
  cost: z.number().int(),
  mergedFrom: z.number().int().nullable(),
  resolution: z.string().nullable(),
  createdAt: Iso,
  resolvedAt: Iso.nullable(),
});
export type ReviewReport = z.infer<typeof ReviewReport>;

export const QuestionHistoryEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  actorName: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string(),
  createdAt: Iso,
});
export type QuestionHistoryEntry = z.infer<typeof QuestionHistoryEntry>;
export const QUESTION_HISTORY_LABELS: Record<string, string> = {
  correct: '采纳纠错',
  reject: '驳回反馈',
  merge: '合并重复题',
  merged_into: '并入其他题目',
  dispute: '标记存疑',
  answer_miss: '补录答案',
};

export const ReviewDetail = z.object({
  question: BankQuestion.extend({ provenance: z.string() }),
  reports: z.array(ReviewReport),
  history: z.array(QuestionHistoryEntry),
});
export type ReviewDetail = z.infer<typeof ReviewDetail>;
export const ReviewDetailResponse = ok(ReviewDetail);
export const ReviewIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 53 - 1),
});

export const ReviewAcceptBody = z.object({
  items: z
    .array(z.object({ questionId: Id, answer: Answer }))
    .min(1, '请选择要采纳的题目')
    .max(100, '一次最多处理 100 道题'),
  reason: Reason.min(1, '请填写处理说明'),
});
export type ReviewAcceptBody = z.input<typeof ReviewAcceptBody>;
export const ReviewAcceptResult = z.object({
  questions: z.number().int(),
  reports: z.number().int(),
  /** Reporters refunded, and the points given back. */
  refunds: z.number().int(),
  refunded: z.number().int(),
});
export const ReviewAcceptResponse = ok(ReviewAcceptResult);

export const ReviewRejectBody = z.object({
  questionIds: z.array(Id).min(1, '请选择要驳回的题目').max(100, '一次最多处理 100 道题'),
  reason: Reason.min(1, '请填写处理说明'),
});
export type ReviewRejectBody = z.input<typeof ReviewRejectBody>;
export const ReviewRejectResponse = ok(z.object({ questions: z.number().int(), reports: z.number().int() }));

export const ReviewMergeBody = z.object({
  targetId: Id,
  sourceIds: z.array(Id).min(1, '请选择要并入的重复题目').max(50, '一次最多合并 50 道题'),
  reason: Reason.min(1, '请填写处理说明'),
});
export type ReviewMergeBody = z.input<typeof ReviewMergeBody>;
export const ReviewMergeResponse = ok(z.object({ merged: z.number().int(), reports: z.number().int() }));

// ---------- administrators: the 未收录 queue ----------

export const OCS_MISS_STATUSES = ['open', 'answered', 'dismissed'] as const;
export const OcsMissStatus = z.enum(OCS_MISS_STATUSES);
export type OcsMissStatus = z.infer<typeof OcsMissStatus>;
export const OCS_MISS_STATUS_LABELS: Record<OcsMissStatus, string> = {
  open: '待补录',
  answered: '已补录',
  dismissed: '已忽略',
};

export const MissListQuery = PageQuery.extend({
  status: OcsMissStatus.default('open'),
  keyword: z.string().trim().max(200).optional(),
});
export type MissListQuery = z.input<typeof MissListQuery>;

export const MissItem = z.object({
  id: z.number().int(),
  title: z.string(),
  type: BankType,
  options: z.array(z.string()),
  /** How often it was asked and found nothing. */
  count: z.number().int(),
  firstAt: Iso,
  lastAt: Iso,
  status: OcsMissStatus,
  /** An AI's suggestion, waiting for an administrator. */
  draft: z.array(z.string()).nullable(),
  draftModel: z.string().nullable(),
  questionId: z.number().int().nullable(),
});
export type MissItem = z.infer<typeof MissItem>;
export const MissListResponse = page(MissItem);

export const MissAnswerBody = z.object({
  items: z
    .array(z.object({ id: Id, answer: Answer }))
    .min(1, '请选择要补录的题目')
    .max(100, '一次最多处理 100 道题'),
});
export type MissAnswerBody = z.input<typeof MissAnswerBody>;
export const MissAnswerResponse = ok(z.object({ answered: z.number().int() }));

export const MissDraftResponse = ok(MissItem);

export const MissDismissBody = z.object({
  ids: z.array(Id).min(1, '请选择要忽略的题目').max(100, '一次最多处理 100 道题'),
});
export type MissDismissBody = z.input<typeof MissDismissBody>;
export const MissDismissResponse = ok(z.object({ dismissed: z.number().int() }));
