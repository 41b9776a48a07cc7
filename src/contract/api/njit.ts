/**
 * NJIT student lookup endpoints: search, detail, reveal, filter options, overview, roster imports and
 * the audit log. Every endpoint needs role njit; importing, revealing and the audit log check for the
 * admin role as well (in the handler, with a message of their own).
 */
import { endpoint } from '../endpoint';

const tags = ['njit'];

// ---------- students ----------

/** At least one criterion; at most 50 per page; rate-limited per user. */
export const searchStudents = endpoint({
  method: 'GET',
  path: '/api/njit/students',
  access: 'njit',
  tags,
  summary: '查询学生（至少一个条件，每页最多 50 条，限频）',
  schema: (c) => ({ query: c.StudentSearchQuery, response: c.StudentSearchResponse }),
});

/** The full record, phone and ID masked; audited. */
export const getStudent = endpoint({
  method: 'GET',
  path: '/api/njit/students/:id',
  access: 'njit',
  tags,
  summary: '学生详情（敏感字段已脱敏）',
  schema: (c) => ({ params: c.IdParams, response: c.StudentDetailResponse }),
});

/**
 * Administrators only: corrects some fields of a record; each field corrected is flagged as a manual
 * edit, which the next import keeps unless the importer takes the roster's value. Audited (before and
 * after, phone and ID masked).
 */
export const editStudent = endpoint({
  method: 'PATCH',
  path: '/api/njit/students/:id',
  access: 'njit',
  tags,
  summary: '修改学生信息（管理员；修改的字段在下次导入时默认保留）',
  schema: (c) => ({ params: c.IdParams, body: c.StudentEditBody, response: c.StudentDetailResponse }),
});

/** Administrators only, with a reason; audited. */
export const revealField = endpoint({
  method: 'POST',
  path: '/api/njit/students/:id/reveal',
  access: 'njit',
  tags,
  summary: '查看完整手机号或身份证号（管理员，需填写原因）',
  schema: (c) => ({ params: c.IdParams, body: c.RevealBody, response: c.RevealResponse }),
});

/** Four-eyes reveals: asks another administrator to approve showing one field in full; audited. */
export const requestReveal = endpoint({
  method: 'POST',
  path: '/api/njit/students/:id/reveal-requests',
  access: 'njit',
  tags,
  summary: '申请查看需审批的敏感字段（管理员，需填写原因，由另一位管理员批准）',
  schema: (c) => ({ params: c.IdParams, body: c.RevealBody, response: c.RevealRequestResponse }),
});

/** My requests, or other administrators' requests waiting for a decision. */
export const listRevealRequests = endpoint({
  method: 'GET',
  path: '/api/njit/reveal-requests',
  access: 'njit',
  tags,
  summary: '查看申请：我的申请或待我审批的申请（管理员）',
  schema: (c) => ({ query: c.RevealRequestListQuery, response: c.RevealRequestListResponse }),
});

/** Approve or refuse another administrator's pending request; never one's own. Audited. */
export const decideRevealRequest = endpoint({
  method: 'POST',
  path: '/api/njit/reveal-requests/:id/decision',
  access: 'njit',
  tags,
  summary: '批准或拒绝查看申请（另一位管理员）',
  schema: (c) => ({ params: c.RevealRequestParams, body: c.RevealDecisionBody, response: c.RevealRequestResponse }),
});

/** The requester sees the approved field while the approval lasts; audited as a reveal. */
export const revealApproved = endpoint({
  method: 'POST',
  path: '/api/njit/reveal-requests/:id/reveal',
  access: 'njit',
  tags,
  summary: '查看已批准的敏感字段（申请人，批准后限时）',
  schema: (c) => ({ params: c.RevealRequestParams, response: c.RevealResponse }),
});

/** Colleges, majors and grades for the search form. */
export const options = endpoint({
  method: 'GET',
  path: '/api/njit/options',
  access: 'njit',
  tags,
  summary: '筛选项：学院、专业、年级',
  schema: (c) => ({ response: c.NjitOptionsResponse }),
});

export const overview = endpoint({
  method: 'GET',
  path: '/api/njit/overview',
  access: 'njit',
  tags,
  summary: '概览：人数分布、最近导入、我的查询次数',
  schema: (c) => ({ response: c.NjitOverviewResponse }),
});

// ---------- roster imports (administrators) ----------

/** Multipart upload (field `file`, CSV or XLSX, 413 past 20 MB); answers the preview and validation report. */
export const uploadImport = endpoint({
  method: 'POST',
  path: '/api/njit/imports',
  access: 'njit',
  tags,
  summary: '上传名单（multipart，字段 file；CSV 或 XLSX）并预览校验结果',
  multipart: true,
  schema: (c) => ({ response: c.ImportPreviewResponse }),
});

/** A staged import against what is stored: new, changed (field by field) and missing students, a page at a time. */
export const importDiff = endpoint({
  method: 'GET',
  path: '/api/njit/imports/:id/diff',
  access: 'njit',
  tags,
  summary: '导入差异：新增、变更（含手动修改标记）、名单中缺少的学生（分页，敏感字段脱敏）',
  schema: (c) => ({ params: c.ImportIdParams, query: c.ImportDiffQuery, response: c.ImportDiffResponse }),
});

/**
 * Applies a previewed import in one transaction: fields corrected by hand are kept unless the body
 * takes the roster's value (in bulk or per field); students the roster misses may be marked 离校.
 */
export const commitImport = endpoint({
  method: 'POST',
  path: '/api/njit/imports/:id/commit',
  access: 'njit',
  tags,
  summary: '确认导入（一个事务，按学号更新或新增；手动修改默认保留；可将名单中缺少的学生标记为离校）',
  schema: (c) => ({ params: c.ImportIdParams, body: c.ImportCommitBody, response: c.ImportCommitResponse }),
});

/** An empty roster file with the columns the importer reads (an Excel one with a sheet explaining them). */
export const importTemplate = endpoint({
  method: 'GET',
  path: '/api/njit/imports/template',
  access: 'njit',
  tags,
  summary: '下载名单模板（CSV 或 Excel）',
  schema: (c) => ({ query: c.RosterTemplateQuery }),
});

export const listImports = endpoint({
  method: 'GET',
  path: '/api/njit/imports',
  access: 'njit',
  tags,
  summary: '导入历史',
  schema: (c) => ({ query: c.ImportListQuery, response: c.ImportListResponse }),
});

// ---------- audit log (administrators) ----------

export const listAudit = endpoint({
  method: 'GET',
  path: '/api/njit/audit',
  access: 'njit',
  tags,
  summary: '审计日志（管理员）',
  schema: (c) => ({ query: c.NjitAuditQuery, response: c.NjitAuditListResponse }),
});

/** The CSV attachment of the audit log with the same filters; the export itself is audited. */
export const exportAudit = endpoint({
  method: 'GET',
  path: '/api/njit/audit/export',
  access: 'njit',
  tags,
  summary: '导出审计日志 CSV（管理员）',
  schema: (c) => ({ query: c.NjitAuditExportQuery }),
});

// ---------- retention ----------

/** Students who left more than NJIT_STUDENT_RETENTION_DAYS ago (or will soon), paged; audited. */
export const retentionPreview = endpoint({
  method: 'GET',
  path: '/api/njit/retention',
  access: 'njit',
  tags,
  summary: '到期清除预览：毕业或退学超过保留期限的学生（管理员）',
  schema: (c) => ({ query: c.RetentionPreviewQuery, response: c.RetentionPreviewResponse }),
});

/** Erases the students the confirmed preview listed as due (its cutoff); audited. */
export const purgeStudents = endpoint({
  method: 'POST',
  path: '/api/njit/retention/purge',
  access: 'njit',
  tags,
  summary: '立即清除到期学生记录（管理员，按预览的时间点）',
  schema: (c) => ({ body: c.PurgeBody, response: c.PurgeResponse }),
});

// ---------- the header's search ----------

/** A few students by name, pinyin, initials or student number, masked and audited like any search. */
export const quickSearch = endpoint({
  method: 'GET',
  path: '/api/njit/search',
  access: 'njit',
  tags,
  summary: '全局搜索：按姓名、拼音、首字母或学号找学生（脱敏，计入审计和限频）',
  schema: (c) => ({ query: c.SearchQuery, response: c.StudentHitsResponse }),
});
