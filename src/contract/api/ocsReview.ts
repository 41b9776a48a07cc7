/**
 * OCS review endpoints: a user reports a wrong answer from the portal (the scripts use
 * /api/ocs/report in ./ocs); administrators review reports (accept with the right answer, reject,
 * merge duplicate questions; in bulk) and answer the 未收录 queue.
 */
import { endpoint } from '../endpoint';

const tags = ['ocs-review'];

// ---------- users ----------

/** The query, the bank question it was answered from, and the user's report of it if any. */
export const reportContext = endpoint({
  method: 'GET',
  path: '/api/ocs/queries/:id/report',
  access: 'user',
  tags,
  summary: '反馈答案有误前的信息：这次查询、所答题目、已有的反馈',
  schema: (c) => ({ params: c.QueryIdParams, response: c.OcsReportContextResponse }),
});

/** 400 when the answer cannot be reported (never answered to this user, no bank question); 409 twice; 429 past the daily limit. */
export const createReport = endpoint({
  method: 'POST',
  path: '/api/ocs/reports',
  access: 'user',
  tags,
  summary: '反馈答案有误（可附上认为正确的答案）',
  schema: (c) => ({ body: c.OcsReportBody, response: c.OcsReportResponse }),
});

// ---------- administrators: reports ----------

export const reviewQueue = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/reviews',
  access: 'admin',
  tags,
  summary: '纠错审核队列：被反馈的题目、当前答案与来源、建议答案（存疑优先）',
  schema: (c) => ({ query: c.ReviewQueueQuery, response: c.ReviewQueueResponse }),
});

export const reviewDetail = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/reviews/:id',
  access: 'admin',
  tags,
  summary: '一道题的全部反馈与修改历史',
  schema: (c) => ({ params: c.ReviewIdParams, response: c.ReviewDetailResponse }),
});

/** Each question gets the given answer (source corrected); its reporters charged for the answer are refunded once. */
export const acceptReviews = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/reviews/accept',
  access: 'admin',
  tags,
  summary: '采纳纠错（可批量）：更正题库答案、保留修改历史、给被扣费的反馈者退款',
  schema: (c) => ({ body: c.ReviewAcceptBody, response: c.ReviewAcceptResponse }),
});

export const rejectReviews = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/reviews/reject',
  access: 'admin',
  tags,
  summary: '驳回反馈（可批量）：答案不变，反馈者的权重随之降低',
  schema: (c) => ({ body: c.ReviewRejectBody, response: c.ReviewRejectResponse }),
});

/** The duplicates' reports move to the target; the duplicates leave the bank (their history stays). */
export const mergeReviews = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/reviews/merge',
  access: 'admin',
  tags,
  summary: '合并重复题目：反馈并入目标题目，重复的题目从题库删除',
  schema: (c) => ({ body: c.ReviewMergeBody, response: c.ReviewMergeResponse }),
});

// ---------- administrators: the 未收录 queue ----------

export const listMisses = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/misses',
  access: 'admin',
  tags,
  summary: '未收录题目：没有找到答案的题目，按被问次数从多到少',
  schema: (c) => ({ query: c.MissListQuery, response: c.MissListResponse }),
});

/** Each answer becomes a verified bank entry. */
export const answerMisses = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/misses/answer',
  access: 'admin',
  tags,
  summary: '补录答案（可批量）：每题成为已核实的题库条目',
  schema: (c) => ({ body: c.MissAnswerBody, response: c.MissAnswerResponse }),
});

/** Asks the cheapest enabled AI model; the draft is kept on the row for an administrator to accept. */
export const draftMiss = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/misses/:id/draft',
  access: 'admin',
  tags,
  summary: '让 AI 起草答案（保存为草稿，由管理员确认后入库）',
  schema: (c) => ({ params: c.ReviewIdParams, response: c.MissDraftResponse }),
});

export const dismissMisses = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/misses/dismiss',
  access: 'admin',
  tags,
  summary: '忽略未收录题目（可批量；再被问到时计数继续）',
  schema: (c) => ({ body: c.MissDismissBody, response: c.MissDismissResponse }),
});
