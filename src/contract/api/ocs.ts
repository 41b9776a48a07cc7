/**
 * OCS endpoints for users: the OCS-script query API, the portal's ask form, the overview, the wallet
 * with its bills and their CSV, the query history, and the script side (the AnswererWrapper
 * subscription, the portal's userscript and what the config and download pages show).
 */
import { endpoint } from '../endpoint';
import { OCS_QUERY_PATH } from '../ocsConfig';

const tags = ['ocs'];

// ---------- the OCS-script query API ----------

const queryDoc = {
  access: 'ocs-token',
  tags,
  summary: 'OCS 题库查询（令牌 ocs:query；query、表单或 JSON 均可；始终返回 HTTP 200）',
  description:
    'curl "http://HOST/api/ocs/query?token=pt_xxx&title=题目&type=single&options=A.选项1%0AB.选项2"\n\n' +
    '找到：{"code":1,"question","answer","source","cost","balance"}；否则 {"code":0,"msg"}',
} as const;

/**
 * Query, form, JSON or plain-text input, read by the handler (so no input schema); the token is checked
 * by the handler too, and every refusal is `{code: 0, msg}` with HTTP 200.
 */
export const queryGet = endpoint({
  method: 'GET',
  path: OCS_QUERY_PATH,
  ...queryDoc,
  schema: (c) => ({ response: c.OcsQueryResult }),
});
export const queryPost = endpoint({
  method: 'POST',
  path: OCS_QUERY_PATH,
  ...queryDoc,
  schema: (c) => ({ response: c.OcsQueryResult }),
});

/**
 * Up to OCS_BATCH_MAX questions in one request (JSON `{questions: [{title, type, options}, …]}`, token
 * as for /api/ocs/query), each answered exactly as /api/ocs/query would answer it, in order; charged per
 * answered question. Once the balance runs out, the remaining questions say 余额不足.
 */
export const queryBatch = endpoint({
  method: 'POST',
  path: '/api/ocs/query/batch',
  access: 'ocs-token',
  tags,
  summary: 'OCS 批量查询（一次最多 100 题，按顺序作答、逐题扣费；始终返回 HTTP 200）',
  description:
    'curl -X POST "http://HOST/api/ocs/query/batch" -H "Authorization: Bearer pt_xxx" -H "Content-Type: application/json" ' +
    '-d \'{"questions":[{"title":"题目1","type":"single","options":"A.选项1\\nB.选项2"},{"title":"题目2"}]}\'\n\n' +
    '返回 {"code":1,"results":[每题与 /api/ocs/query 相同的结果, …]}；整批被拒绝（令牌无效、超过 100 题）时 {"code":0,"msg"}。' +
    '余额在中途用完时，之前的题目照常作答，之后需要扣费的题目返回“余额不足”（10 分钟内重复的题目仍免费作答）。',
  schema: (c) => ({ response: c.OcsBatchResult }),
});

export const queryBatchOptions = endpoint({
  method: 'OPTIONS',
  path: '/api/ocs/query/batch',
  access: 'ocs-token',
  tags,
  summary: 'OCS 批量查询的 CORS 预检（204）',
  schema: () => ({}),
});

/**
 * A script reports a wrong answer with the user's token: the `queryId` of the answer (in every answer
 * carries one), or the question as it was asked (title, type, options: the user's latest answer to
 * it); `proposed` is the answer the user believes is right (optional), `reason` why (optional).
 */
export const report = endpoint({
  method: 'POST',
  path: '/api/ocs/report',
  access: 'ocs-token',
  tags,
  summary: '反馈答案有误（令牌 ocs:query；始终返回 HTTP 200：{code, msg}）',
  description:
    'curl -X POST "http://HOST/api/ocs/report" -H "Authorization: Bearer pt_xxx" -H "Content-Type: application/json" ' +
    '-d \'{"queryId":123,"proposed":"B","reason":"教材第 3 章"}\'',
  schema: (c) => ({ response: c.OcsReportResult }),
});

export const reportOptions = endpoint({
  method: 'OPTIONS',
  path: '/api/ocs/report',
  access: 'ocs-token',
  tags,
  summary: '反馈答案有误的 CORS 预检（204）',
  schema: () => ({}),
});

/** The CORS preflight of a script calling with fetch: 204 with the CORS headers. */
export const queryOptions = endpoint({
  method: 'OPTIONS',
  path: OCS_QUERY_PATH,
  access: 'ocs-token',
  tags,
  summary: 'OCS 题库查询的 CORS 预检（204）',
  schema: () => ({}),
});

// ---------- the portal ----------

/** `data` is the OCS result (`code` 1 with the answer, or 0 with `msg`); 429 when too fast. */
export const ask = endpoint({
  method: 'POST',
  path: '/api/ocs/ask',
  access: 'user',
  tags,
  summary: '在门户中提问（与 OCS 接口同一服务，按题扣费）',
  schema: (c) => ({ body: c.AskBody, response: c.AskResponse }),
});

/** Balance, today's numbers, 30 days by outcome, the latest queries. */
export const overview = endpoint({
  method: 'GET',
  path: '/api/ocs/overview',
  access: 'user',
  tags,
  summary: 'OCS 概览：余额、今日统计、30 天趋势、最近查询',
  schema: (c) => ({ response: c.OcsOverviewResponse }),
});

/** The home page's OCS card: the caller's balance and today's queries; review work for administrators. */
export const homeSummary = endpoint({
  method: 'GET',
  path: '/api/ocs/home-summary',
  access: 'user',
  tags,
  summary: '首页摘要：我的余额与今日查询；管理员另见待审核、未收录与导入任务',
  schema: (c) => ({ response: c.OcsHomeSummaryResponse }),
});

/** Balance and the price of one answer, in points. */
export const wallet = endpoint({
  method: 'GET',
  path: '/api/ocs/wallet',
  access: 'user',
  tags,
  summary: '我的积分余额与题库单价',
  schema: (c) => ({ response: c.WalletResponse }),
});

/** The user's own queries (OCS script and ask form), newest first. */
export const listQueries = endpoint({
  method: 'GET',
  path: '/api/ocs/queries',
  access: 'user',
  tags,
  summary: '我的查询记录',
  schema: (c) => ({ query: c.QueryListQuery, response: c.QueryListResponse }),
});

/** Newest first; `kind` repeats (`kind=charge&kind=free`). */
export const listLedger = endpoint({
  method: 'GET',
  path: '/api/ocs/ledger',
  access: 'user',
  tags,
  summary: '我的账单（按类型、日期筛选）',
  schema: (c) => ({ query: c.LedgerQuery, response: c.LedgerListResponse }),
});

/** A download (text/csv attachment), fetched by the browser as a plain link. */
export const ledgerCsv = endpoint({
  method: 'GET',
  path: '/api/ocs/ledger.csv',
  access: 'user',
  tags,
  summary: '导出账单 CSV（与列表相同的筛选）',
  schema: (c) => ({ query: c.LedgerCsvQuery }),
});

// ---------- the script side ----------

/** The bare AnswererWrapper array (no envelope), cross-origin because OCS fetches it from the course site. */
export const config = endpoint({
  method: 'GET',
  path: '/api/ocs/config',
  access: 'token',
  scope: 'ocs:query',
  tags,
  summary: 'OCS 题库配置（订阅地址；令牌 ocs:query）',
  description:
    '返回 OCS 可直接导入的 AnswererWrapper 数组（无信封）。type：GM_xmlhttpRequest（默认）或 fetch；method：get（默认）或 post。',
  schema: (c) => ({ query: c.OcsConfigQuery, response: c.OcsConfigResponse }),
});

/** The script as text/javascript, for the browser's userscript manager. */
export const userscript = endpoint({
  method: 'GET',
  path: '/api/ocs/userscript.user.js',
  access: 'public',
  tags,
  summary: '下载 Portal 题库助手用户脚本',
  schema: (c) => ({ response: c.OcsUserscript }),
});

export const scriptInfo = endpoint({
  method: 'GET',
  path: '/api/ocs/script-info',
  access: 'user',
  tags,
  summary: '用户脚本与配置订阅信息',
  schema: (c) => ({ response: c.OcsScriptInfoResponse }),
});

// ---------- the header's search ----------

/** My OCS queries by title, newest first. */
export const searchQueries = endpoint({
  method: 'GET',
  path: '/api/ocs/search',
  access: 'user',
  tags,
  summary: '全局搜索：按题目找我的查询记录',
  schema: (c) => ({ query: c.SearchQuery, response: c.SearchHitsResponse }),
});
