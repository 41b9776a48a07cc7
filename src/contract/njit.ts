/**
 * HTTP shapes of the NJIT student lookup: search, detail, reveal, import, overview and its audit log.
 * Phones and ID-card numbers leave the server masked; only the reveal call returns one full value.
 */
import { z } from 'zod';
import { ok, page } from './common';
import { isValidIdCard } from './idCard';

/** 离校: no longer on the roster (an importer marked the students a new roster did not list). */
export const STUDENT_STATUSES = ['在读', '休学', '毕业', '退学', '离校'] as const;
export const StudentStatus = z.enum(STUDENT_STATUSES);
export type StudentStatus = z.infer<typeof StudentStatus>;

export const GENDERS = ['男', '女'] as const;
export const Gender = z.enum(GENDERS);

/** No endpoint returns more than this many students at once (anti-scraping). */
export const NJIT_MAX_PAGE_SIZE = 50;
/** Searches never page past this many matches: narrow the criteria instead. */
export const NJIT_MAX_TOTAL = 10000;
/** Upload limit of an import file. */
export const NJIT_IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The columns of a roster file, in the order of the templates: the importer maps a file's header to
 * these fields (by these labels, among other names: server/modules/njit/parse.ts) and validates them
 * (server/modules/njit/record.ts), and the CSV and Excel templates are made from this list. Only the
 * required ones refuse a row; an optional value that is not valid is imported blank, with a warning.
 */
export const ROSTER_COLUMNS = [
  { field: 'studentNo', label: '学号', required: true, hint: '4–20 位字母或数字，不能重复' },
  { field: 'name', label: '姓名', required: true, hint: '最多 32 个字符' },
  { field: 'gender', label: '性别', required: false, hint: '男 或 女' },
  { field: 'college', label: '学院', required: false, hint: '最多 64 个字符' },
  { field: 'major', label: '专业', required: false, hint: '最多 64 个字符' },
  { field: 'className', label: '班级', required: false, hint: '最多 64 个字符' },
  { field: 'grade', label: '年级', required: false, hint: '四位入学年份，如 2023' },
  { field: 'status', label: '状态', required: false, hint: '在读、休学、毕业、退学、离校 之一；不填为 在读' },
  { field: 'phone', label: '手机号', required: false, hint: '11 位手机号，以 1 开头' },
  { field: 'idCard', label: '身份证号', required: false, hint: '18 位居民身份证号' },
  { field: 'dormitory', label: '宿舍', required: false, hint: '最多 64 个字符' },
] as const;
export type RosterField = (typeof ROSTER_COLUMNS)[number]['field'];
export const ROSTER_TEMPLATE_FORMATS = ['csv', 'xlsx'] as const;
export const RosterTemplateQuery = z.object({ format: z.enum(ROSTER_TEMPLATE_FORMATS) });

/**
 * One student as the caller's field policy shows it (src/contract/njitPolicy.ts): a hidden field is
 * absent, a masked one masked. With the default policy every field is there and phone and ID masked.
 */
export const Student = z.object({
  id: z.number().int(),
  studentNo: z.string().optional(),
  name: z.string().optional(),
  gender: Gender.nullable().optional(),
  college: z.string().nullable().optional(),
  major: z.string().nullable().optional(),
  className: z.string().nullable().optional(),
  grade: z.number().int().nullable().optional(),
  status: StudentStatus.optional(),
  /** Masked by default: 138****1234. */
  phone: z.string().nullable().optional(),
  /** Masked by default: 3201**********1234. */
  idCard: z.string().nullable().optional(),
  dormitory: z.string().nullable().optional(),
  updatedAt: z.string(),
});
export type Student = z.infer<typeof Student>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `最多 ${max} 个字符`)
    .optional()
    .transform((v) => (v ? v : undefined));

export const StudentSearchQuery = z.object({
  current: z.coerce.number().int().min(1).max(1000).default(1),
  pageSize: z.coerce.number().int().min(1).max(NJIT_MAX_PAGE_SIZE, `每页最多 ${NJIT_MAX_PAGE_SIZE} 条`).default(10),
  studentNo: optionalText(20),
  /** prefix (default): 学号以此开头；exact: 学号完全一致。 */
  studentNoMode: z.enum(['prefix', 'exact']).default('prefix'),
  /** 汉字姓名，或拼音全拼 / 首字母（zhangsan、zs）。 */
  name: optionalText(32),
  /** fuzzy (default): 汉字包含、拼音前缀；exact: 姓名、全拼或首字母完全一致。 */
  nameMode: z.enum(['fuzzy', 'exact']).default('fuzzy'),
  college: optionalText(64),
  major: optionalText(64),
  className: optionalText(64),
  grade: z.coerce.number().int().min(1900).max(2200).optional(),
  status: StudentStatus.optional(),
});
export type StudentSearchQuery = z.infer<typeof StudentSearchQuery>;

export const StudentSearchResponse = page(Student).extend({
  /** True when more than NJIT_MAX_TOTAL students matched; total is then NJIT_MAX_TOTAL. */
  capped: z.boolean(),
});
export const StudentResponse = ok(Student);

export const RevealField = z.enum(['phone', 'idCard']);
export type RevealField = z.infer<typeof RevealField>;
export const RevealBody = z.object({
  field: RevealField,
  reason: z
    .string({ error: '请填写查看原因' })
    .trim()
    .min(2, '请填写查看原因（至少 2 个字）')
    .max(200, '原因最多 200 个字'),
});
export type RevealBody = z.infer<typeof RevealBody>;
export const RevealResponse = ok(z.object({ field: RevealField, value: z.string().nullable() }));

/**
 * The search form's choices, among the students in the caller's row scope. A field the caller may not
 * filter on (not shown to them in full) has no choices (an empty list), and a major's college is null
 * unless the college is shown in full.
 */
export const NjitOptionsResponse = ok(
  z.object({
    colleges: z.array(z.string()),
    majors: z.array(z.object({ college: z.string().nullable(), major: z.string() })),
    grades: z.array(z.number().int()),
    /**
     * Four-eyes reveals: the fields shown in full only after another administrator approved a request,
     * and for how many minutes the requester may then see them (fields empty: a reason is enough).
     */
    approval: z.object({ fields: z.array(RevealField), minutes: z.number().int() }),
  }),
);

// ---------- four-eyes reveals ----------

export const REVEAL_REQUEST_STATUSES = ['pending', 'approved', 'refused'] as const;
export const RevealRequest = z.object({
  id: z.number().int(),
  studentId: z.number().int(),
  /**
   * Who the request is about, as the caller's field policy shows them: masked when masked for the caller,
   * absent when hidden.
   */
  studentName: z.string().optional(),
  studentNo: z.string().optional(),
  field: RevealField,
  reason: z.string(),
  requesterName: z.string(),
  status: z.enum(REVEAL_REQUEST_STATUSES),
  deciderName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** Until when an approved request lets its requester see the value. */
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type RevealRequest = z.infer<typeof RevealRequest>;
export const RevealRequestResponse = ok(RevealRequest);
export const RevealRequestListQuery = z.object({
  /** mine: the caller's own requests; pending: other people's requests waiting for a decision. */
  scope: z.enum(['mine', 'pending'], { error: 'scope 只能是 mine 或 pending' }),
  current: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const RevealRequestListResponse = page(RevealRequest);
export const RevealRequestParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const RevealDecisionBody = z.object({
  decision: z.enum(['approve', 'refuse'], { error: '请选择批准或拒绝' }),
});

const Bucket = z.object({ name: z.string(), count: z.number().int() });
export const ImportSummary = z.object({
  id: z.number().int(),
  userName: z.string(),
  fileName: z.string(),
  totalRows: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  rejected: z.number().int(),
  createdAt: z.string(),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const NjitOverviewResponse = ok(
  z.object({
    /** Students in the caller's row scope. */
    total: z.number().int(),
    /**
     * Distributions among the same students. One is absent when the caller does not see its field in
     * full (their NJIT roles' field policy): the page says so instead of drawing it.
     */
    byCollege: z.array(Bucket).optional(),
    byGrade: z.array(Bucket).optional(),
    byStatus: z.array(Bucket).optional(),
    lastImport: ImportSummary.nullable(),
    queriesToday: z.number().int(),
    queriesThisMinute: z.number().int(),
    /** Queries per minute allowed to one user; 0 means unlimited. */
    queryLimitPerMinute: z.number().int(),
  }),
);

export const ImportIssue = z.object({
  /** Line number in the file, the header being line 1. */
  row: z.number().int(),
  field: z.string(),
  message: z.string(),
});
export type ImportIssue = z.infer<typeof ImportIssue>;

export const ImportPreviewRow = Student.omit({ id: true, updatedAt: true }).extend({ row: z.number().int() });

export const ImportPreview = z.object({
  importId: z.string(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  /** csv only: the detected text encoding. */
  encoding: z.enum(['utf-8', 'gbk']).nullable(),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  rejectedRows: z.number().int(),
  toInsert: z.number().int(),
  toUpdate: z.number().int(),
  /** The first problems that refuse a row (at most 500); issueCount tells how many there are. */
  issues: z.array(ImportIssue),
  issueCount: z.number().int(),
  /**
   * The first optional values that were not valid and are imported blank (at most 500; the row itself
   * is imported); warningCount tells how many there are.
   */
  warnings: z.array(ImportIssue),
  warningCount: z.number().int(),
  /** The first valid rows, masked. */
  sample: z.array(ImportPreviewRow),
  /** Recognised columns: header in the file -> field. */
  columns: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;
export const ImportPreviewResponse = ok(ImportPreview);

export const ImportIdParams = z.object({ id: z.string().min(1).max(64) });
export const ImportListQuery = z.object({
  current: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(NJIT_MAX_PAGE_SIZE).default(10),
});
export const ImportListResponse = page(ImportSummary);

export const NJIT_AUDIT_ACTIONS = [
  'search',
  'detail',
  'reveal',
  'reveal_request',
  'reveal_decide',
  'import',
  'audit_export',
  'purge_preview',
  'purge',
  'edit',
  'policy_change',
  'scope_change',
  'policy_preview',
] as const;
export const NjitAuditAction = z.enum(NJIT_AUDIT_ACTIONS);
export type NjitAuditAction = z.infer<typeof NjitAuditAction>;

export const NjitAuditEntry = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  userName: z.string(),
  action: z.string(),
  ip: z.string().nullable(),
  criteria: z.record(z.string(), z.unknown()).nullable(),
  resultCount: z.number().int().nullable(),
  recordIds: z.array(z.number().int()),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type NjitAuditEntry = z.infer<typeof NjitAuditEntry>;

export const NjitAuditQuery = z.object({
  current: z.coerce.number().int().min(1).max(100000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  action: NjitAuditAction.optional(),
  userName: optionalText(64),
  /** ISO times, inclusive from, exclusive to. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /**
   * Only what concerned this student (its record id among the row's records): every search that
   * listed them, every view, reveal and export of their record. A student's own access report.
   */
  studentId: z.coerce
    .number({ error: '学生编号须为正整数' })
    .int('学生编号须为正整数')
    .min(1, '学生编号须为正整数')
    .max(2_147_483_647, '学生编号过大')
    .optional(),
});
export type NjitAuditQuery = z.infer<typeof NjitAuditQuery>;
export const NjitAuditExportQuery = NjitAuditQuery.omit({ current: true, pageSize: true });
/** The columns of the audit log's CSV export (GET /api/njit/audit/export). */
export const NJIT_AUDIT_CSV_HEADER = ['编号', '时间', '用户', '操作', 'IP', '条件', '结果数', '记录编号', '原因'];
export const NjitAuditListResponse = page(NjitAuditEntry);

// ---------- retention: purging students who left ----------

/** The statuses of a student who left: their record is purged NJIT_STUDENT_RETENTION_DAYS later. */
export const LEAVING_STATUSES = ['毕业', '退学', '离校'] as const satisfies readonly StudentStatus[];

const days = (what: string) =>
  z.coerce
    .number({ error: `${what}须为整数天数` })
    .int(`${what}须为整数天数`)
    .min(0, `${what}不能为负数`)
    .max(3650, `${what}最多 3650 天`);

export const RetentionPreviewQuery = z.object({
  current: z.coerce
    .number({ error: '页码须为正整数' })
    .int('页码须为正整数')
    .min(1, '页码须为正整数')
    .max(100000)
    .default(1),
  pageSize: z.coerce
    .number({ error: '每页条数须为正整数' })
    .int('每页条数须为正整数')
    .min(1, '每页条数须为正整数')
    .max(NJIT_MAX_PAGE_SIZE, `每页最多 ${NJIT_MAX_PAGE_SIZE} 条`)
    .default(10),
  /** 0: only the students due now (what a purge would erase); n: also those due in the next n days. */
  withinDays: days('到期范围').default(0),
});
export type RetentionPreviewQuery = z.infer<typeof RetentionPreviewQuery>;

/** A student due for the purge; the named fields as the caller's field policy shows them (absent when hidden). */
export const PurgeCandidate = z.object({
  id: z.number().int(),
  studentNo: z.string().optional(),
  name: z.string().optional(),
  status: StudentStatus.optional(),
  college: z.string().nullable().optional(),
  className: z.string().nullable().optional(),
  /** When they graduated or left. */
  leftAt: z.string(),
  /** When their record becomes due for the purge (leftAt plus the retention days). */
  dueAt: z.string(),
});
export type PurgeCandidate = z.infer<typeof PurgeCandidate>;

export const RetentionPreviewResponse = page(PurgeCandidate).extend({
  /** NJIT_STUDENT_RETENTION_DAYS; 0: records are never purged. */
  retentionDays: z.number().int(),
  /** Students who left at or before this instant are due now (null when retention is off). */
  cutoff: z.string().nullable(),
  /** How many are due now: what "purge now" with this cutoff erases. */
  dueCount: z.number().int(),
});
export type RetentionPreview = z.infer<typeof RetentionPreviewResponse>;

export const PurgeBody = z.object({
  /** The cutoff of the preview that was confirmed: exactly the students it listed as due are erased. */
  cutoff: z.iso.datetime({ offset: true, error: '清除时间点无效，请刷新预览后重试' }),
});
export const PurgeResponse = ok(z.object({ purged: z.number().int(), cutoff: z.string() }));

// ---------- manual edits and the import's diff ----------

/** The fields staff may correct by hand (the student number is the key a roster matches on: never). */
export const EDITABLE_FIELDS = [
  'name',
  'gender',
  'college',
  'major',
  'className',
  'grade',
  'status',
  'phone',
  'idCard',
  'dormitory',
] as const satisfies readonly RosterField[];
export const EditableField = z.enum(EDITABLE_FIELDS);
export type EditableField = z.infer<typeof EditableField>;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** One line of text: trimmed, no control characters; blank means "not filled" (null). */
const lineText = (label: string, max: number) =>
  z
    .string({ error: `${label}应为文字` })
    .trim()
    .max(max, `${label}最多 ${max} 个字符`)
    .refine((v) => !CONTROL_CHARS.test(v), `${label}不能包含换行或控制字符`)
    .transform((v) => (v === '' ? null : v))
    .nullable();

/**
 * A correction of some fields of a student's record; a field left out is unchanged, null (or blank) clears
 * it. The same rules as a roster's cells (server/modules/njit/record.ts), except that a wrong value is
 * refused here instead of being left blank: a person can fix it.
 */
export const StudentEditBody = z
  .strictObject(
    {
      name: z
        .string({ error: '姓名应为文字' })
        .trim()
        .min(1, '请填写姓名')
        .max(32, '姓名最多 32 个字符')
        .refine((v) => !CONTROL_CHARS.test(v), '姓名不能包含换行或控制字符'),
      gender: Gender.nullable(),
      college: lineText('学院', 64),
      major: lineText('专业', 64),
      className: lineText('班级', 64),
      grade: z
        .number({ error: '年级应为四位入学年份，如 2023' })
        .int('年级应为四位入学年份，如 2023')
        .min(1950, '年级应为四位入学年份，如 2023')
        .max(2100, '年级应为四位入学年份，如 2023')
        .nullable(),
      status: z.enum(STUDENT_STATUSES, { error: `状态应为 ${STUDENT_STATUSES.join('、')} 之一` }),
      phone: z
        .string({ error: '手机号应为文字' })
        .max(32, '手机号格式不正确（应为 11 位，以 1 开头）')
        .transform((v) => v.replace(/[\s-]/g, '').replace(/^\+?86/, ''))
        .refine((v) => v === '' || /^1[3-9]\d{9}$/.test(v), '手机号格式不正确（应为 11 位，以 1 开头）')
        .transform((v) => (v === '' ? null : v))
        .nullable(),
      idCard: z
        .string({ error: '身份证号应为文字' })
        .max(32, '身份证号格式或校验位不正确')
        .transform((v) => v.replace(/\s/g, '').toUpperCase())
        .refine((v) => v === '' || isValidIdCard(v), '身份证号格式或校验位不正确')
        .transform((v) => (v === '' ? null : v))
        .nullable(),
      dormitory: lineText('宿舍', 64),
    },
    { error: (i) => (i.code === 'unrecognized_keys' ? `不能修改的字段：${i.keys.join('、')}` : '请求格式不正确') },
  )
  .partial()
  .refine((b) => Object.keys(b).length > 0, '请至少修改一个字段');
export type StudentEditBody = z.input<typeof StudentEditBody>;

/** A field of a student's record that was corrected by hand, and by whom. */
export const ManualEdit = z.object({ field: EditableField, userName: z.string(), editedAt: z.string() });
export type ManualEdit = z.infer<typeof ManualEdit>;
/** The record (masked) with the fields corrected by hand. */
export const StudentDetail = Student.extend({ manualEdits: z.array(ManualEdit) });
export type StudentDetail = z.infer<typeof StudentDetail>;
export const StudentDetailResponse = ok(StudentDetail);

export const IMPORT_DIFF_KINDS = ['changed', 'new', 'missing'] as const;
export const ImportDiffQuery = RetentionPreviewQuery.pick({ current: true, pageSize: true }).extend({
  /** changed: stored students the roster changes; new: roster rows not stored; missing: stored students still
   * 在读 or 休学 that the roster does not list. */
  kind: z.enum(IMPORT_DIFF_KINDS, { error: 'kind 只能是 changed、new 或 missing' }).default('changed'),
});
export type ImportDiffQuery = z.infer<typeof ImportDiffQuery>;

export const ImportFieldChange = z.object({
  field: EditableField,
  /** Text as shown; phone and ID numbers masked. */
  stored: z.string().nullable(),
  roster: z.string().nullable(),
  /** The stored value was corrected by hand (by editedBy): the import keeps it unless told otherwise. */
  manual: z.boolean(),
  editedBy: z.string().nullable(),
});
export type ImportFieldChange = z.infer<typeof ImportFieldChange>;
export const ImportDiffItem = z.object({
  /** null for a new student. */
  studentId: z.number().int().nullable(),
  studentNo: z.string(),
  name: z.string(),
  status: StudentStatus,
  /** changed: the fields whose value differs; new and missing: none. */
  changes: z.array(ImportFieldChange),
});
export type ImportDiffItem = z.infer<typeof ImportDiffItem>;
export const ImportDiffCounts = z.object({
  new: z.number().int(),
  changed: z.number().int(),
  missing: z.number().int(),
  /** Changed fields whose stored value was corrected by hand. */
  manualConflicts: z.number().int(),
});
export type ImportDiffCounts = z.infer<typeof ImportDiffCounts>;
export const ImportDiffResponse = page(ImportDiffItem).extend({ counts: ImportDiffCounts });

const take = z.enum(['keep', 'roster'], { error: '只能选择保留手动修改（keep）或采用名单（roster）' });
/**
 * How to commit: for fields corrected by hand, keep them (default) or take the roster's value, in bulk
 * (`manual`) and per student and field (`choices`, which win); students the roster does not list are left
 * as they are (default) or marked 离校.
 */
export const ImportCommitBody = z
  .strictObject({
    manual: take.default('keep'),
    choices: z
      .array(
        z.strictObject({
          studentNo: z.string().regex(/^[A-Za-z0-9]{4,20}$/, '学号应为 4–20 位字母或数字'),
          field: z.enum(EDITABLE_FIELDS, { error: '不能选择的字段' }),
          take,
        }),
      )
      .max(10000, '逐项选择最多 10000 项，其余请用批量选择')
      .default([])
      .refine(
        (cs) => new Set(cs.map((c) => `${c.studentNo}\u0001${c.field}`)).size === cs.length,
        '同一学生的同一字段只能选择一次',
      ),
    missing: z.enum(['leave', 'mark_left'], { error: '名单中没有的学生只能保持不变或标记为离校' }).default('leave'),
  })
  .prefault({});
export type ImportCommitBody = z.input<typeof ImportCommitBody>;
/** The choice as the server reads it (every part given). */
export type ImportCommitChoice = z.output<typeof ImportCommitBody>;
export const ImportCommitResult = ImportSummary.extend({
  /** Fields corrected by hand that the import kept, and those it replaced with the roster's value. */
  keptManual: z.number().int(),
  takenRoster: z.number().int(),
  /** Students the roster did not list, marked 离校. */
  markedLeft: z.number().int(),
});
export type ImportCommitResult = z.infer<typeof ImportCommitResult>;
export const ImportCommitResponse = ok(ImportCommitResult);
