/**
 * OCS free points: the daily claim and redeeming a code for users, and the administrators' redeem-code
 * batches with their one-time CSV download.
 */
import { endpoint } from '../endpoint';

const tags = ['ocs'];

// ---------- users ----------

/** Claimed today?, the amount, when the next claim opens, the balance. */
export const freeStatus = endpoint({
  method: 'GET',
  path: '/api/ocs/free',
  access: 'user',
  tags,
  summary: '每日免费领取：今天是否已领、数额、下次开放时间',
  schema: (c) => ({ response: c.FreeStatusResponse }),
});

/** 409 when already claimed today or claiming is switched off. */
export const claimFree = endpoint({
  method: 'POST',
  path: '/api/ocs/free/claim',
  access: 'user',
  tags,
  summary: '领取今天的免费积分（每人每天一次）',
  schema: (c) => ({ response: c.FreeClaimResponse }),
});

/** 400 unknown code, 409 disabled/expired/used up/already redeemed, 429 too many wrong codes. */
export const redeem = endpoint({
  method: 'POST',
  path: '/api/ocs/redeem',
  access: 'user',
  tags,
  summary: '兑换兑换码（不区分大小写与分隔符；输错每分钟最多 5 次）',
  schema: (c) => ({ body: c.RedeemBody, response: c.RedeemResponse }),
});

// ---------- administrators: redeem-code batches ----------

/** Newest first. */
export const listRedeemBatches = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/redeem-batches',
  access: 'admin',
  tags,
  summary: '兑换码批次列表',
  schema: (c) => ({ query: c.RedeemBatchListQuery, response: c.RedeemBatchListResponse }),
});

export const createRedeemBatch = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/redeem-batches',
  access: 'admin',
  tags,
  summary: '生成一批兑换码（之后下载一次 CSV）',
  schema: (c) => ({ body: c.RedeemBatchBody, response: c.RedeemBatchResponse }),
});

/** A download (text/csv attachment) that works once per batch; refused when cross-site. */
export const redeemCodesCsv = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/redeem-batches/:id/codes.csv',
  access: 'admin',
  tags,
  summary: '下载该批次的兑换码 CSV（只能下载一次）',
  schema: (c) => ({ params: c.RedeemBatchIdParams }),
});

export const disableRedeemBatch = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/redeem-batches/:id/disable',
  access: 'admin',
  tags,
  summary: '停用批次（其中的兑换码都不能再兑换）',
  schema: (c) => ({ params: c.RedeemBatchIdParams, response: c.RedeemBatchResponse }),
});
