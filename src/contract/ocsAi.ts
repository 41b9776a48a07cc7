/**
 * OCS AI HTTP shapes: OpenAI-compatible providers and their models (administrators; API keys are
 * write-only and come back only masked), the models users may pick, each user's AI preferences
 * (prompt template, model, answer strategy, daily AI cap), prompt defaults and preview, and the
 * administrators' model test.
 */
import { z } from 'zod';
import { ok, OkEmpty } from './common';

const Iso = z.string();

/** The types a prompt is written for ('any' when the script does not say). */
export const OCS_AI_TYPES = ['single', 'multiple', 'judgement', 'completion', 'any'] as const;
export const OcsAiType = z.enum(OCS_AI_TYPES);
export type OcsAiType = z.infer<typeof OcsAiType>;

export const OCS_STRATEGIES = ['bank_ai', 'bank', 'ai'] as const;
export const OcsStrategy = z.enum(OCS_STRATEGIES);
export type OcsStrategy = z.infer<typeof OcsStrategy>;
export const OCS_STRATEGY_LABELS: Record<OcsStrategy, string> = {
  bank_ai: '题库优先再 AI（默认）',
  bank: '仅题库',
  ai: '仅 AI',
};

export const OCS_MODEL_TIMEOUT = { min: 1000, max: 300_000, default: 60_000 } as const;

// ---------- providers (administrators) ----------

export const AiProviderBody = z.object({
  name: z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(64, '名称最多 64 个字符'),
  /** The OpenAI-compatible base URL, e.g. https://api.deepseek.com/v1; checked again by the server. */
  baseURL: z
    .string({ error: '请输入接口地址' })
    .trim()
    .min(1, '请输入接口地址')
    .max(500, '接口地址过长')
    .regex(/^https?:\/\/\S+$/i, '接口地址须以 http:// 或 https:// 开头'),
  /** Write-only: never sent back. */
  apiKey: z.string({ error: '请输入 API 密钥' }).trim().min(1, '请输入 API 密钥').max(500, 'API 密钥过长'),
});
export type AiProviderBody = z.infer<typeof AiProviderBody>;
/** Every field optional; an absent (or empty) apiKey keeps the stored one. */
export const AiProviderPatchBody = AiProviderBody.extend({
  apiKey: z.string().trim().max(500, 'API 密钥过长').optional(),
}).partial();
export type AiProviderPatchBody = z.infer<typeof AiProviderPatchBody>;

export const AiProvider = z.object({
  id: z.number().int(),
  name: z.string(),
  baseURL: z.string(),
  /** `sk-…abcd`: enough to recognise the key, never enough to use it. */
  apiKeyMasked: z.string(),
  modelCount: z.number().int(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type AiProvider = z.infer<typeof AiProvider>;
export const AiProviderResponse = ok(AiProvider);
export const AiProviderListResponse = ok(z.array(AiProvider));

// ---------- models (administrators) ----------

export const AiModelBody = z.object({
  providerId: z.number({ error: '请选择服务商' }).int().positive('请选择服务商').max(2_147_483_647, '请选择服务商'),
  model: z.string({ error: '请输入模型 ID' }).trim().min(1, '请输入模型 ID').max(128, '模型 ID 最多 128 个字符'),
  displayName: z.string({ error: '请输入显示名称' }).trim().min(1, '请输入显示名称').max(64, '显示名称最多 64 个字符'),
  price: z.number({ error: '请输入单价' }).int('单价须为整数').min(0, '单价不能为负').max(1_000_000, '单价过大'),
  enabled: z.boolean().default(true),
  timeoutMs: z
    .number()
    .int()
    .min(OCS_MODEL_TIMEOUT.min, '超时至少 1 秒')
    .max(OCS_MODEL_TIMEOUT.max, '超时最多 300 秒')
    .default(OCS_MODEL_TIMEOUT.default),
  /** null: the provider's default. */
  maxTokens: z
    .number()
    .int()
    .min(1, '最大 Token 数至少为 1')
    .max(1_000_000, '最大 Token 数过大')
    .nullable()
    .default(null),
});
export type AiModelBody = z.input<typeof AiModelBody>;
export const AiModelPatchBody = z
  .object({
    providerId: AiModelBody.shape.providerId,
    model: AiModelBody.shape.model,
    displayName: AiModelBody.shape.displayName,
    price: AiModelBody.shape.price,
    enabled: z.boolean(),
    timeoutMs: AiModelBody.shape.timeoutMs.unwrap(),
    maxTokens: AiModelBody.shape.maxTokens.unwrap(),
  })
  .partial();
export type AiModelPatchBody = z.infer<typeof AiModelPatchBody>;

export const AiAdminModel = z.object({
  id: z.number().int(),
  providerId: z.number().int(),
  providerName: z.string(),
  model: z.string(),
  displayName: z.string(),
  price: z.number().int(),
  enabled: z.boolean(),
  timeoutMs: z.number().int(),
  maxTokens: z.number().int().nullable(),
  createdAt: Iso,
  updatedAt: Iso,
});
export type AiAdminModel = z.infer<typeof AiAdminModel>;
export const AiAdminModelResponse = ok(AiAdminModel);
export const AiAdminModelListResponse = ok(z.array(AiAdminModel));
export const AiDeleteResponse = OkEmpty;

export const AiSampleQuestion = z.object({ title: z.string(), type: OcsAiType, options: z.array(z.string()) });
export type AiSampleQuestion = z.infer<typeof AiSampleQuestion>;

/** One sample question per type, for the prompt preview and the model test. */
export const OCS_AI_SAMPLES: Record<OcsAiType, AiSampleQuestion> = {
  single: { title: '中华人民共和国的首都是哪座城市？', type: 'single', options: ['上海', '北京', '广州', '深圳'] },
  multiple: { title: '下列属于可再生能源的有', type: 'multiple', options: ['太阳能', '煤炭', '风能', '石油'] },
  judgement: { title: '光在真空中的传播速度约为每秒 30 万千米。', type: 'judgement', options: [] },
  completion: { title: '水的化学式是____，氧气的化学式是____。', type: 'completion', options: [] },
  any: { title: '《史记》的作者是谁？', type: 'any', options: [] },
};

export const AiModelTestBody = z.object({ type: OcsAiType.default('single') });
export type AiModelTestBody = z.input<typeof AiModelTestBody>;
/** POST /api/ocs/admin/models/:id/test: the body may be left out (the single-choice sample). */
export const AiModelTestOptionalBody = AiModelTestBody.nullish();
export const AiModelTestResult = z.object({
  ok: z.boolean(),
  latencyMs: z.number().int(),
  question: AiSampleQuestion,
  /** The model's reply as received (null when there was none). */
  raw: z.string().nullable(),
  /** The reply parsed into the OCS answer format. */
  answer: z.string().nullable(),
  error: z.string().nullable(),
});
export type AiModelTestResult = z.infer<typeof AiModelTestResult>;
export const AiModelTestResponse = ok(AiModelTestResult);

// ---------- users: models to pick from, preferences, prompts ----------

export const AiModelOption = z.object({
  id: z.number().int(),
  displayName: z.string(),
  model: z.string(),
  price: z.number().int(),
});
export type AiModelOption = z.infer<typeof AiModelOption>;
export const AiModelOptionListResponse = ok(z.array(AiModelOption));

export const OcsPreferences = z.object({
  /** null: the default template of each question type. */
  promptTemplate: z.string().nullable(),
  /** null: the cheapest enabled model. */
  modelId: z.number().int().nullable(),
  strategy: OcsStrategy,
  /** Points a day for AI answers; null: no limit. */
  dailyAiCap: z.number().int().nullable(),
  /** Answers less sure than this (0–1) are "not found" and cost nothing; 0 accepts every answer. */
  minConfidence: z.number().min(0).max(1),
  /** Read-only: AI points spent today (PORTAL_TZ). */
  todayAiSpent: z.number().int(),
});
export type OcsPreferences = z.infer<typeof OcsPreferences>;
export const OcsPreferencesResponse = ok(OcsPreferences);

/** Absent fields are left as they are; null resets to the default. The template is checked by the server. */
export const OcsPreferencesBody = z
  .object({
    promptTemplate: z.string().max(20_000, '提示词模板过长').nullable(),
    modelId: z.number().int().positive().max(2_147_483_647).nullable(),
    strategy: OcsStrategy,
    dailyAiCap: z
      .number({ error: '请输入整数' })
      .int('每日上限须为整数')
      .min(0, '每日上限不能为负')
      .max(1_000_000_000, '每日上限过大')
      .nullable(),
    minConfidence: z
      .number({ error: '请输入 0 到 1 之间的数' })
      .min(0, '最低置信度不能小于 0')
      .max(1, '最低置信度不能大于 1'),
  })
  .partial();
export type OcsPreferencesBody = z.infer<typeof OcsPreferencesBody>;

export const AiPromptVariable = z.object({ name: z.string(), label: z.string() });
export const AiPromptDefaults = z.object({
  templates: z.record(OcsAiType, z.string()),
  variables: z.array(AiPromptVariable),
  maxLength: z.number().int(),
  samples: z.record(OcsAiType, AiSampleQuestion),
});
export type AiPromptDefaults = z.infer<typeof AiPromptDefaults>;
export const AiPromptDefaultsResponse = ok(AiPromptDefaults);

export const AiPromptPreviewBody = z.object({
  template: z.string({ error: '请输入提示词模板' }).max(20_000, '提示词模板过长'),
  type: OcsAiType.default('single'),
});
export type AiPromptPreviewBody = z.input<typeof AiPromptPreviewBody>;
export const AiPromptPreview = z.object({ prompt: z.string(), question: AiSampleQuestion });
export type AiPromptPreview = z.infer<typeof AiPromptPreview>;
export const AiPromptPreviewResponse = ok(AiPromptPreview);
