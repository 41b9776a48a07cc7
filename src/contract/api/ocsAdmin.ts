/**
 * OCS administration endpoints (administrators only): users with their wallets and balance adjustments,
 * the service settings, and the question bank (stats, search, edit, verification, export, imports).
 */
import { endpoint } from '../endpoint';

const tags = ['ocs-admin'];

// ---------- users and balances ----------

/** Balance, queries today/total, AI spend, last query. */
export const listUsers = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/users',
  access: 'admin',
  tags,
  summary: 'OCS 用户：余额、今日/累计查询、AI 花费、最近查询',
  schema: (c) => ({ query: c.OcsAdminUserListQuery, response: c.OcsAdminUserListResponse }),
});

/** + adds, − removes; the reason goes on the bill and the audit log. */
export const adjustBalance = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/users/:id/adjust',
  access: 'admin',
  tags,
  summary: '调整用户余额（正数增加、负数扣减，须填写原因；记入账单与审计）',
  schema: (c) => ({ params: c.IdParams, body: c.AdjustBalanceBody, response: c.AdjustBalanceResponse }),
});

/** Newest first. */
export const userLedger = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/users/:id/ledger',
  access: 'admin',
  tags,
  summary: '用户的积分明细（最新在前）',
  schema: (c) => ({ params: c.IdParams, query: c.PageQuery, response: c.OcsAdminLedgerResponse }),
});

// ---------- service settings ----------

export const getSettings = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/settings',
  access: 'admin',
  tags,
  summary: 'OCS 服务设置',
  schema: (c) => ({ response: c.OcsSettingsResponse }),
});

/** Every change is audited. */
export const saveSettings = endpoint({
  method: 'PUT',
  path: '/api/ocs/admin/settings',
  access: 'admin',
  tags,
  summary: '保存 OCS 服务设置（每次修改记入审计）',
  schema: (c) => ({ body: c.OcsSettingsBody, response: c.OcsSettingsResponse }),
});

// ---------- first-run setup ----------

/** Bank imported? AI model configured? Price set? Computed live, for the checklist. */
export const setupStatus = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/setup',
  access: 'admin',
  tags,
  summary: 'OCS 首次设置清单：题库已导入、AI 模型已配置、单价已设置',
  schema: (c) => ({ response: c.OcsSetupStatusResponse }),
});

// ---------- question bank ----------

export const bankStats = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/bank/stats',
  access: 'admin',
  tags,
  summary: '题库统计：总数、按来源、按状态、命中最多的 20 题',
  schema: (c) => ({ response: c.BankStatsResponse }),
});

export const listQuestions = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/bank/questions',
  access: 'admin',
  tags,
  summary: '搜索题目（题目关键字、题型、来源、状态）',
  schema: (c) => ({ query: c.BankQuestionListQuery, response: c.BankQuestionListResponse }),
});

export const getQuestion = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/bank/questions/:id',
  access: 'admin',
  tags,
  summary: '题目详情',
  schema: (c) => ({ params: c.IdParams, response: c.BankQuestionResponse }),
});

/** Validated like an import; 409 when it duplicates another question. */
export const updateQuestion = endpoint({
  method: 'PUT',
  path: '/api/ocs/admin/bank/questions/:id',
  access: 'admin',
  tags,
  summary: '修改题目（与导入相同的校验；与其他题目重复时 409）',
  schema: (c) => ({ params: c.IdParams, body: c.BankQuestionUpdateBody, response: c.BankQuestionResponse }),
});

export const deleteQuestion = endpoint({
  method: 'DELETE',
  path: '/api/ocs/admin/bank/questions/:id',
  access: 'admin',
  tags,
  summary: '删除题目',
  schema: (c) => ({ params: c.IdParams, response: c.BankQuestionDeleteResponse }),
});

/** wrong takes the question out of matching; verified marks an AI answer as checked. */
export const setQuestionStatus = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/bank/questions/:id/status',
  access: 'admin',
  tags,
  summary: '标记题目：已核实 / 未核实 / 错误（错误的题目不再参与匹配）',
  schema: (c) => ({ params: c.IdParams, body: c.BankQuestionStatusBody, response: c.BankQuestionResponse }),
});

/** A file download (JSON or CSV) the handler streams itself; the UI links to it. */
export const bankExport = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/bank/export',
  access: 'admin',
  tags,
  summary: '导出整个题库（JSON 或 CSV，可直接再导入）',
  schema: (c) => ({ query: c.BankExportQuery }),
});

/**
 * Imports the sample bank shipped with the portal (a few hundred general-knowledge questions written
 * for it) through the import's own validation and upsert; questions already in the bank are skipped,
 * so a second call adds nothing.
 */
export const importSampleBank = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/bank/sample',
  access: 'admin',
  tags,
  summary: '导入示例题库（随门户附带的常识题，已存在的题目跳过，可重复调用）',
  schema: (c) => ({ response: c.SampleBankImportResponse }),
});

/** Multipart upload (field `file`); answers the preview and validation report. */
export const uploadImport = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/bank/imports',
  access: 'admin',
  tags,
  summary: '上传题库文件（multipart，字段 file；JSON 或 CSV）并预览校验结果',
  multipart: true,
  schema: (c) => ({ response: c.BankImportPreviewResponse }),
});

/** Starts the background write; poll importJob for progress. */
export const commitImport = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/bank/imports/:id/commit',
  access: 'admin',
  tags,
  summary: '确认导入：后台分批写入，返回任务（可轮询进度）',
  schema: (c) => ({ params: c.BankImportIdParams, response: c.BankImportJobResponse }),
});

export const importJob = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/bank/imports/:id',
  access: 'admin',
  tags,
  summary: '导入任务进度',
  schema: (c) => ({ params: c.BankImportIdParams, response: c.BankImportJobResponse }),
});

// ---------- the header's search ----------

/** Bank questions whose title starts with the words given, or by id (administrators). */
export const searchBank = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/bank/search',
  access: 'admin',
  tags,
  summary: '全局搜索：按题目开头或编号找题库题目（管理员）',
  schema: (c) => ({ query: c.SearchQuery, response: c.SearchHitsResponse }),
});
