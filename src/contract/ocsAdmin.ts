/**
 * OCS administration HTTP shapes (all under /api/ocs/admin, administrators only): users with their
 * wallet and usage, balance adjustment, service settings, and the question bank (search, edit,
 * verification, statistics, export). The bank importer's shapes live in ./ocs (BankImport*).
 */
import { z } from 'zod';
import { ok, page, PageQuery } from './common';
import { LedgerItem, OCS_OPTIONS_MAX, OCS_TITLE_MAX, OCS_TYPES } from './ocs';

const Iso = z.string();

// --- Users and balances ---

export const OcsAdminUserListQuery = PageQuery.extend({
  keyword: z.string().trim().max(64).optional(),
  sortBy: z.enum(['createdAt', 'balance', 'lastQueryAt']).default('createdAt'),
  order: z.enum(['ascend', 'descend']).default('descend'),
});
export type OcsAdminUserListQuery = z.input<typeof OcsAdminUserListQuery>;

export const OcsAdminUser = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string().nullable(),
  balance: z.number().int(),
  queriesToday: z.number().int(),
  queriesTotal: z.number().int(),
  /** Points spent on AI answers (queries whose outcome is ai). */
  aiSpend: z.number().int(),
  lastQueryAt: Iso.nullable(),
});
export type OcsAdminUser = z.infer<typeof OcsAdminUser>;
export const OcsAdminUserListResponse = page(OcsAdminUser);

export const OCS_ADJUST_MAX = 100_000_000;
export const AdjustBalanceBody = z.object({
  amount: z
    .number({ error: '请输入调整数额' })
    .int('调整数额必须是整数')
    .min(-OCS_ADJUST_MAX, '调整数额过大')
    .max(OCS_ADJUST_MAX, '调整数额过大')
    .refine((n) => n !== 0, '调整数额不能为 0'),
  reason: z.string({ error: '请填写调整原因' }).trim().min(1, '请填写调整原因').max(200, '原因不能超过 200 个字符'),
});
export type AdjustBalanceBody = z.input<typeof AdjustBalanceBody>;
export const AdjustBalanceResponse = ok(z.object({ balance: z.number().int(), ledgerId: z.number().int() }));

export const OcsAdminLedgerResponse = page(LedgerItem);

// --- Service settings (same bounds as server/modules/ocs/admin/settings.ts, with Chinese messages) ---

export const OcsSettingsBody = z.object({
  bankPrice: z.number().int('须为整数').min(0, '不能小于 0').max(1_000_000, '不能超过 1000000'),
  freeDaily: z.number().int('须为整数').min(0, '不能小于 0').max(1_000_000, '不能超过 1000000'),
  fuzzyThreshold: z.number().min(0.3, '不能低于 0.3（过低会答错题）').max(1, '不能超过 1'),
  ratePerSecond: z.number().int('须为整数').min(1, '至少为 1').max(1000, '不能超过 1000'),
  rateBurst: z.number().int('须为整数').min(1, '至少为 1').max(10_000, '不能超过 10000'),
  latencyBudgetSeconds: z
    .number()
    .int('须为整数')
    .min(1, '至少 1 秒')
    .max(25, '不能超过 25 秒（部分脚本管理器约 30 秒后丢弃响应）')
    .default(15),
  disputedMode: z.enum(['lower', 'refuse'], { error: '请选择存疑答案的处理方式' }).default('lower'),
  disputeThreshold: z.number().min(1, '至少为 1').max(20, '不能超过 20').default(3),
  reportDailyLimit: z.number().int('须为整数').min(1, '至少为 1').max(1000, '不能超过 1000').default(20),
});
export type OcsSettingsBody = z.infer<typeof OcsSettingsBody>;
export const OCS_DISPUTED_MODE_LABELS = {
  lower: '降低置信度后照常作答',
  refuse: '审核前不作答（视为未找到）',
} as const;
export const OcsSettingsResponse = ok(OcsSettingsBody);

// --- First-run setup (the checklist on the administrators' OCS pages) ---

export const OcsSetupStatus = z.object({
  /** The bank holds at least one question that takes part in matching (not marked wrong). */
  bank: z.object({ done: z.boolean() }),
  /** Enabled AI models (a model needs its provider, so a model means a usable configuration). */
  ai: z.object({ done: z.boolean(), models: z.number().int() }),
  /** The price of a bank answer was saved by an administrator (until then it is the default). */
  price: z.object({ done: z.boolean(), bankPrice: z.number().int() }),
  /** Every item is done: the checklist is no longer shown. */
  complete: z.boolean(),
});
export type OcsSetupStatus = z.infer<typeof OcsSetupStatus>;
export const OcsSetupStatusResponse = ok(OcsSetupStatus);

// --- Question bank ---

/** Filters and statistics group upstream:<name> rows under `upstream`. */
export const BANK_SOURCES = ['import', 'manual', 'ai', 'corrected', 'upstream'] as const;
export const BankSource = z.enum(BANK_SOURCES);
export type BankSource = z.infer<typeof BankSource>;
export const BANK_SOURCE_LABELS: Record<BankSource, string> = {
  import: '导入',
  manual: '手工',
  ai: 'AI',
  corrected: '纠错',
  upstream: '上游题库',
};
/** A row's source as stored: one of BANK_SOURCES but upstream, or upstream:<name>. */
export const BankRowSource = z.union([BankSource, z.string().regex(/^upstream:.+/)]);
/** 「上游题库 · name」 for upstream:name, the label otherwise. */
export function bankSourceLabel(source: string): string {
  if (source.startsWith('upstream:')) return `${BANK_SOURCE_LABELS.upstream} · ${source.slice(9)}`;
  return BANK_SOURCE_LABELS[source as BankSource] ?? source;
}

export const BANK_STATUSES = ['verified', 'unverified', 'wrong'] as const;
export const BankStatus = z.enum(BANK_STATUSES);
export type BankStatus = z.infer<typeof BankStatus>;
export const BANK_STATUS_LABELS: Record<BankStatus, string> = {
  verified: '已核实',
  unverified: '未核实',
  wrong: '错误（不参与匹配）',
};

export const BankType = z.enum([...OCS_TYPES, 'any']);
export type BankType = z.infer<typeof BankType>;

export const BankQuestion = z.object({
  id: z.number().int(),
  title: z.string(),
  type: BankType,
  options: z.array(z.string()),
  answer: z.array(z.string()),
  source: BankRowSource,
  status: BankStatus,
  /** 存疑: several users reported the answer; an administrator has not reviewed it yet. */
  disputed: z.boolean().default(false),
  hitCount: z.number().int(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type BankQuestion = z.infer<typeof BankQuestion>;

export const BankQuestionListQuery = PageQuery.extend({
  keyword: z.string().trim().max(200).optional(),
  type: BankType.optional(),
  source: BankSource.optional(),
  status: BankStatus.optional(),
  sortBy: z.enum(['updated', 'hits']).default('updated'),
  order: z.enum(['ascend', 'descend']).default('descend'),
});
export type BankQuestionListQuery = z.input<typeof BankQuestionListQuery>;
export const BankQuestionListResponse = page(BankQuestion);
export const BankQuestionResponse = ok(BankQuestion);

/** An edit replaces the question; answers may be option letters or texts, as in an import. */
export const BankQuestionUpdateBody = z.object({
  title: z.string().trim().min(1, '请输入题目').max(OCS_TITLE_MAX, `题目不能超过 ${OCS_TITLE_MAX} 个字符`),
  type: BankType,
  options: z
    .array(z.string().max(500, '选项不能超过 500 个字符'))
    .max(OCS_OPTIONS_MAX, `选项不能超过 ${OCS_OPTIONS_MAX} 个`)
    .default([]),
  answer: z.array(z.string().max(4000)).min(1, '请输入答案').max(100),
});
export type BankQuestionUpdateBody = z.input<typeof BankQuestionUpdateBody>;

export const BankQuestionStatusBody = z.object({ status: BankStatus });
export type BankQuestionStatusBody = z.infer<typeof BankQuestionStatusBody>;
export const BankQuestionDeleteResponse = z.object({ success: z.literal(true) });

export const BankStats = z.object({
  total: z.number().int(),
  bySource: z.record(BankSource, z.number().int()),
  byStatus: z.record(BankStatus, z.number().int()),
  topHits: z.array(
    BankQuestion.pick({ id: true, title: true, type: true, source: true, status: true, hitCount: true }),
  ),
});
export type BankStats = z.infer<typeof BankStats>;
export const BankStatsResponse = ok(BankStats);

/** The sample bank shipped with the portal, imported in one step; questions already there are skipped. */
export const SampleBankImportResult = z.object({
  /** Questions in the sample file. */
  total: z.number().int(),
  /** Newly added to the bank. */
  inserted: z.number().int(),
  /** Already in the bank (same title, type and options): left as they are. */
  skipped: z.number().int(),
});
export type SampleBankImportResult = z.infer<typeof SampleBankImportResult>;
export const SampleBankImportResponse = ok(SampleBankImportResult);

export const BankExportQuery = z.object({ format: z.enum(['json', 'csv']).default('json') });
export type BankExportQuery = z.input<typeof BankExportQuery>;
