/**
 * OCS HTTP shapes: the OCS-script query API (whose shape is fixed by the script), the wallet and its
 * bills, the user's query history and overview, and the question bank's import and administration.
 */
import { z } from 'zod';
import { ok, page, PageQuery } from './common';

const Iso = z.string(); // ISO-8601 timestamps (UTC) on the wire

export const OCS_TITLE_MAX = 2000;
export const OCS_OPTIONS_MAX = 26;

export const OCS_TYPES = ['single', 'multiple', 'judgement', 'completion'] as const;
export const OcsType = z.enum(OCS_TYPES);
export type OcsType = z.infer<typeof OcsType>;
export const OCS_TYPE_LABELS: Record<OcsType | 'any', string> = {
  single: '单选题',
  multiple: '多选题',
  judgement: '判断题',
  completion: '填空题',
  any: '不限',
};

/** What the OCS script sends (query string, JSON or form); anything else becomes `{code: 0}`. */
export const OcsQueryInput = z.object({
  title: z.string({ error: '缺少题目' }),
  type: z.string().max(40).optional(),
  options: z.union([z.string(), z.array(z.string())]).optional(),
  token: z.string().optional(),
});
export type OcsQueryInput = z.infer<typeof OcsQueryInput>;

/**
 * Where an answer comes from: imported with the bank, verified by an administrator, AI-generated,
 * corrected after users reported it, or from an upstream bank (`upstream:<name>`).
 */
export const OCS_PROVENANCES = ['import', 'verified', 'ai', 'corrected'] as const;
export const OcsProvenance = z.union([z.enum(OCS_PROVENANCES), z.string().regex(/^upstream:.+/)]);
export type OcsProvenance = z.infer<typeof OcsProvenance>;
export const OCS_PROVENANCE_LABELS: Record<(typeof OCS_PROVENANCES)[number] | 'upstream', string> = {
  import: '题库导入',
  verified: '管理员核实',
  ai: 'AI 生成',
  corrected: '纠错后更正',
  upstream: '上游题库',
};
/** 「上游题库 · name」 for upstream:name, the label otherwise. */
export function provenanceLabel(source: string): string {
  if (source.startsWith('upstream:')) return `${OCS_PROVENANCE_LABELS.upstream} · ${source.slice(9)}`;
  return OCS_PROVENANCE_LABELS[source as (typeof OCS_PROVENANCES)[number]] ?? source;
}

export const OcsFound = z.object({
  code: z.literal(1),
  question: z.string(),
  answer: z.string(),
  /** Provenance (OcsProvenance). */
  source: OcsProvenance,
  /** 0–1: how sure the service is (provenance, how close the match, agreement between sources, reports). */
  confidence: z.number().min(0).max(1),
  cost: z.number().int(),
  balance: z.number().int(),
  /** The query's id in the user's history: what a report of this answer names. */
  queryId: z.number().int().optional(),
});
export const OcsNotFound = z.object({ code: z.literal(0), msg: z.string() });
export const OcsQueryResult = z.union([OcsFound, OcsNotFound]);
export type OcsQueryResult = z.infer<typeof OcsQueryResult>;

/** Questions one POST /api/ocs/query/batch may carry (a whole exam page). */
export const OCS_BATCH_MAX = 100;
/**
 * POST /api/ocs/query/batch answers `{code: 1, results}`, one result per question in the order sent,
 * each what /api/ocs/query would have answered; or `{code: 0, msg}` when the batch itself is refused
 * (token, too many questions, not a list), which costs nothing.
 */
export const OcsBatchFound = z.object({ code: z.literal(1), results: z.array(OcsQueryResult) });
export const OcsBatchResult = z.union([OcsBatchFound, OcsNotFound]);
export type OcsBatchResult = z.infer<typeof OcsBatchResult>;

/** POST /api/ocs/report, the scripts' report: HTTP 200 always, `code` 1 when the report was taken. */
export const OcsReportResult = z.object({ code: z.union([z.literal(0), z.literal(1)]), msg: z.string() });
export type OcsReportResult = z.infer<typeof OcsReportResult>;

/** The portal's own ask form (askQuestion page). */
export const AskBody = z.object({
  title: z.string().trim().min(1, '请输入题目').max(OCS_TITLE_MAX, `题目不能超过 ${OCS_TITLE_MAX} 个字符`),
  type: z.enum([...OCS_TYPES, 'any']).default('any'),
  options: z
    .array(z.string().max(500, '选项不能超过 500 个字符'))
    .max(OCS_OPTIONS_MAX, `选项不能超过 ${OCS_OPTIONS_MAX} 个`)
    .default([]),
});
export type AskBody = z.input<typeof AskBody>;
export const AskResponse = ok(OcsQueryResult);

export const OCS_OUTCOMES = ['bank', 'ai', 'cache', 'miss', 'no_balance', 'error'] as const;
export const OcsOutcome = z.enum(OCS_OUTCOMES);
export type OcsOutcome = z.infer<typeof OcsOutcome>;
export const OCS_OUTCOME_LABELS: Record<OcsOutcome, string> = {
  bank: '题库命中',
  ai: 'AI 作答',
  cache: '缓存（未扣费）',
  miss: '未找到',
  no_balance: '余额不足',
  error: '出错',
};

/** A report of a wrong answer: waiting for review, accepted (the bank was corrected), rejected. */
export const OCS_REPORT_STATUSES = ['open', 'accepted', 'rejected'] as const;
export const OcsReportStatus = z.enum(OCS_REPORT_STATUSES);
export type OcsReportStatus = z.infer<typeof OcsReportStatus>;
export const OCS_REPORT_STATUS_LABELS: Record<OcsReportStatus, string> = {
  open: '待审核',
  accepted: '已采纳',
  rejected: '未采纳',
};

export const QueryLogItem = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.string(),
  outcome: OcsOutcome,
  /** The answer's pieces (option texts, 正确/错误, blanks). */
  answer: z.array(z.string()).nullable(),
  cost: z.number().int(),
  message: z.string().nullable(),
  /** Provenance and confidence of the answer (every answered query has them). */
  source: z.string().nullable().default(null),
  confidence: z.number().nullable().default(null),
  /** The user's report of this answer and its outcome, if they made one. */
  report: z.object({ status: OcsReportStatus, refunded: z.number().int() }).nullable().default(null),
  createdAt: Iso,
});
export type QueryLogItem = z.infer<typeof QueryLogItem>;
export const QueryListQuery = PageQuery.extend({ outcome: OcsOutcome.optional() });
export type QueryListQuery = z.input<typeof QueryListQuery>;
export const QueryListResponse = page(QueryLogItem);

export const OcsDaily = z.object({
  day: z.string(),
  bank: z.number().int(),
  ai: z.number().int(),
  miss: z.number().int(),
});
/**
 * Whether the portal can answer at all: the bank holds usable questions, an AI model is enabled. Both
 * false on a fresh install until an administrator sets OCS up (the pages then say so).
 */
export const OcsServiceReady = z.object({ bank: z.boolean(), ai: z.boolean() });
export type OcsServiceReady = z.infer<typeof OcsServiceReady>;

export const OcsOverview = z.object({
  balance: z.number().int(),
  price: z.number().int(),
  today: z.object({
    queries: z.number().int(),
    answered: z.number().int(),
    hitRate: z.number(),
    spent: z.number().int(),
  }),
  daily: z.array(OcsDaily),
  recent: z.array(QueryLogItem),
  hasToken: z.boolean(),
  serviceReady: OcsServiceReady,
});
export type OcsOverview = z.infer<typeof OcsOverview>;
export const OcsOverviewResponse = ok(OcsOverview);

/** What the portal's home shows of OCS: the caller's own figures, and the review work for administrators. */
export const OcsHomeSummary = z.object({
  balance: z.number().int(),
  /** Queries today (PORTAL_TZ day), the caller's own. */
  todayQueries: z.number().int(),
  /** Administrators only; null for everyone else. */
  admin: z
    .object({
      /** Bank questions with open reports (the review queue's rows). */
      reviewsWaiting: z.number().int(),
      /** Open entries of the 未收录 queue. */
      missesOpen: z.number().int(),
      /** Question-bank imports of this server instance (jobs live 30 minutes after they start). */
      importsRunning: z.number().int(),
      importsFailed: z.number().int(),
    })
    .nullable(),
});
export type OcsHomeSummary = z.infer<typeof OcsHomeSummary>;
export const OcsHomeSummaryResponse = ok(OcsHomeSummary);

export const WalletResponse = ok(z.object({ balance: z.number().int(), price: z.number().int() }));

export const LEDGER_KINDS = ['charge', 'topup', 'free', 'redeem', 'adjust', 'refund'] as const;
export const LedgerKind = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof LedgerKind>;
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  charge: '扣费',
  topup: '充值',
  free: '免费领取',
  redeem: '兑换码',
  adjust: '管理员调整',
  refund: '退款',
};

/** A calendar day PostgreSQL takes as a date: the shape alone let 2024-13-45 and 0000-01-01 through (a 500). */
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .refine((s) => {
    const [y, m, d] = s.split('-').map(Number);
    const t = new Date(0);
    t.setUTCFullYear(y, m - 1, d);
    return y >= 1 && t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
  }, '日期无效');
export const LedgerQuery = PageQuery.extend({
  kind: z.union([LedgerKind, z.array(LedgerKind)]).optional(),
  from: Day.optional(),
  to: Day.optional(),
});
export type LedgerQuery = z.input<typeof LedgerQuery>;
/** The CSV export's filter: the list's, without paging. */
export const LedgerCsvQuery = LedgerQuery.omit({ current: true, pageSize: true });
export const LedgerItem = z.object({
  id: z.number().int(),
  kind: LedgerKind,
  /** The query a charge (or a refund) was for: what a report from the bill names. */
  queryId: z.number().int().nullable().default(null),
  amount: z.number().int(),
  balanceAfter: z.number().int(),
  memo: z.string(),
  createdAt: Iso,
});
export type LedgerItem = z.infer<typeof LedgerItem>;
export const LedgerListResponse = page(LedgerItem);

// --- Question bank (administrators) ---

export const OCS_BANK_MAX_BYTES = 50 * 1024 * 1024;
/**
 * The most questions (rows) one bank file may hold. The largest real banks are tens of thousands of
 * questions; the cap bounds what one preview stages and how long its check runs (a 50 MB file of
 * `[{},{},…]` is otherwise 17 million rows to check). A file with more is refused whole.
 */
export const OCS_BANK_MAX_ROWS = 200_000;

export const BankImportIssue = z.object({ row: z.number().int(), message: z.string() });
export const BankImportPreview = z.object({
  id: z.string(),
  fileName: z.string(),
  total: z.number().int(),
  valid: z.number().int(),
  rejected: z.number().int(),
  /** Valid rows already in the bank (same title, type and options): they will be updated. */
  existing: z.number().int(),
  issues: z.array(BankImportIssue),
  sample: z.array(
    z.object({
      row: z.number().int(),
      title: z.string(),
      type: z.string(),
      options: z.array(z.string()),
      answer: z.array(z.string()),
    }),
  ),
});
export type BankImportPreview = z.infer<typeof BankImportPreview>;
export const BankImportPreviewResponse = ok(BankImportPreview);

export const BankImportJob = z.object({
  id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  error: z.string().nullable(),
});
export type BankImportJob = z.infer<typeof BankImportJob>;
export const BankImportJobResponse = ok(BankImportJob);
export const BankImportIdParams = z.object({ id: z.string().regex(/^[0-9a-f-]{36}$/, '导入编号无效') });
