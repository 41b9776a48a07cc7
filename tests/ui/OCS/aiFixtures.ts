/** Shared data for the OCS AI page tests, shaped by src/contract/ocsAi.ts. */
import {
  OCS_AI_SAMPLES,
  type AiAdminModel,
  type AiPromptDefaults,
  type AiProvider,
  type OcsPreferences,
} from '@/contract';

export const DEFAULTS: AiPromptDefaults = {
  templates: {
    single: '单选默认：${title}\n${options}',
    multiple: '多选默认：${title}\n${options}',
    judgement: '判断默认：${title}，只答正确或错误',
    completion: '填空默认：${title}',
    any: '通用默认：${title}',
  },
  variables: [
    { name: '${title}', label: '题目（必填）' },
    { name: '${type}', label: '题型' },
    { name: '${options}', label: '选项' },
  ],
  maxLength: 4000,
  samples: OCS_AI_SAMPLES,
};

export const prefs = (over: Partial<OcsPreferences> = {}) => ({
  success: true as const,
  data: {
    promptTemplate: null,
    modelId: null,
    strategy: 'bank_ai' as const,
    dailyAiCap: null,
    minConfidence: 0,
    todayAiSpent: 7,
    ...over,
  },
});

/** An error as the request layer throws it for an error envelope. */
export function apiError(status: number, errorMessage: string, data?: Record<string, string[]>) {
  return Object.assign(new Error(errorMessage), {
    info: { success: false, errorCode: 'BAD_REQUEST', errorMessage, ...(data ? { data } : {}) },
    response: { status, data: { success: false, errorCode: 'BAD_REQUEST', errorMessage, ...(data ? { data } : {}) } },
  });
}

const at = '2025-03-01T02:00:00.000Z';
export const PROVIDERS: AiProvider[] = [
  {
    id: 1,
    name: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    apiKeyMasked: 'sk-3…9f2a',
    modelCount: 2,
    createdAt: at,
    updatedAt: at,
  },
  {
    id: 2,
    name: '本地 Ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    apiKeyMasked: 'olla…-key',
    modelCount: 0,
    createdAt: at,
    updatedAt: at,
  },
];
export const MODELS: AiAdminModel[] = [
  {
    id: 1,
    providerId: 1,
    providerName: 'DeepSeek',
    model: 'deepseek-chat',
    displayName: 'DeepSeek V3',
    price: 2,
    enabled: true,
    timeoutMs: 60_000,
    maxTokens: null,
    createdAt: at,
    updatedAt: at,
  },
  {
    id: 2,
    providerId: 1,
    providerName: 'DeepSeek',
    model: 'deepseek-reasoner',
    displayName: 'DeepSeek R1',
    price: 5,
    enabled: false,
    timeoutMs: 120_000,
    maxTokens: 1024,
    createdAt: at,
    updatedAt: at,
  },
];
