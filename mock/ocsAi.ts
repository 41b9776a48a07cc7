/**
 * Dev mocks of OCS AI (`npm run dev`), typed by src/contract/ocsAi.ts: two providers with three models
 * (one disabled), the user's preferences, prompt defaults and preview (the server's own pure prompt
 * code), and the model test: model 2 answers, model 3 times out. tests/mock validates every answer.
 */
import {
  AiModelBody,
  AiModelPatchBody,
  AiModelTestBody,
  AiPromptPreviewBody,
  AiProviderBody,
  AiProviderPatchBody,
  OCS_AI_SAMPLES,
  OcsPreferencesBody,
  type AiAdminModel,
  type AiProvider,
  type OcsPreferences,
  DEFAULT_PROMPT_TEMPLATES,
  renderPrompt,
  TEMPLATE_MAX_LENGTH,
  validateTemplate,
} from '../src/contract';
import { fail, parse, type Req } from './_lib/http';
import * as ocsAiApi from '../src/contract/api/ocsAi';
import { defineMocks, on } from './_lib/endpoint';

const now = () => new Date().toISOString();
const mask = (k: string) => (k.length <= 8 ? '…' : `${k.slice(0, 4)}…${k.slice(-4)}`);

let providers: AiProvider[] = [
  {
    id: 1,
    name: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    apiKeyMasked: 'sk-3…9f2a',
    modelCount: 2,
    createdAt: now(),
    updatedAt: now(),
  },
  {
    id: 2,
    name: '通义千问',
    baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    apiKeyMasked: 'sk-8…c41d',
    modelCount: 1,
    createdAt: now(),
    updatedAt: now(),
  },
];
let nextProviderId = 3;
const model = (m: Omit<AiAdminModel, 'createdAt' | 'updatedAt' | 'providerName'>): AiAdminModel => ({
  ...m,
  providerName: providers.find((p) => p.id === m.providerId)?.name ?? '',
  createdAt: now(),
  updatedAt: now(),
});
let models: AiAdminModel[] = [
  model({
    id: 1,
    providerId: 1,
    model: 'deepseek-chat',
    displayName: 'DeepSeek V3',
    price: 2,
    enabled: true,
    timeoutMs: 60_000,
    maxTokens: null,
  }),
  model({
    id: 2,
    providerId: 2,
    model: 'qwen-turbo',
    displayName: '通义千问 Turbo',
    price: 1,
    enabled: true,
    timeoutMs: 30_000,
    maxTokens: 512,
  }),
  model({
    id: 3,
    providerId: 1,
    model: 'deepseek-reasoner',
    displayName: 'DeepSeek R1',
    price: 5,
    enabled: false,
    timeoutMs: 120_000,
    maxTokens: null,
  }),
];
let nextModelId = 4;
let prefs: OcsPreferences = {
  promptTemplate: null,
  modelId: null,
  strategy: 'bank_ai',
  dailyAiCap: null,
  minConfidence: 0,
  todayAiSpent: 4,
};

const counted = () => {
  providers = providers.map((p) => ({ ...p, modelCount: models.filter((m) => m.providerId === p.id).length }));
};
const providerOf = (req: Req) => providers.find((p) => p.id === Number(req.params?.id));
const modelOf = (req: Req) => models.find((m) => m.id === Number(req.params?.id));
const badUrl = (url: string) => /^https?:\/\/[^/]*@/i.test(url);

export default defineMocks(
  on(ocsAiApi.getPreferences, (_req, res) => res.json({ success: true, data: prefs })),
  on(ocsAiApi.savePreferences, (req, res) => {
    const body = parse(OcsPreferencesBody, req.body, res);
    if (!body) return;
    const template = body.promptTemplate?.trim()
      ? body.promptTemplate
      : body.promptTemplate === undefined
        ? undefined
        : null;
    const problem = template ? validateTemplate(template) : null;
    if (problem) return fail(res, 400, 'BAD_REQUEST', problem, { promptTemplate: [problem] });
    if (body.modelId != null && !models.some((m) => m.id === body.modelId && m.enabled)) {
      return fail(res, 400, 'BAD_REQUEST', '所选模型不存在或已停用', { modelId: ['所选模型不存在或已停用'] });
    }
    prefs = { ...prefs, ...body, ...(template !== undefined ? { promptTemplate: template } : {}) };
    res.json({ success: true, data: prefs });
  }),
  on(ocsAiApi.modelOptions, (_req, res) =>
    res.json({
      success: true,
      data: models
        .filter((m) => m.enabled)
        .map(({ id, displayName, model: m, price }) => ({ id, displayName, model: m, price })),
    }),
  ),
  on(ocsAiApi.promptDefaults, (_req, res) =>
    res.json({
      success: true,
      data: {
        templates: DEFAULT_PROMPT_TEMPLATES,
        variables: [
          { name: '${title}', label: '题目（必填）' },
          { name: '${type}', label: '题型，如“单选题”' },
          { name: '${options}', label: '选项，每行一个，带 A. B. 标号' },
        ],
        maxLength: TEMPLATE_MAX_LENGTH,
        samples: OCS_AI_SAMPLES,
      },
    }),
  ),
  on(ocsAiApi.promptPreview, (req, res) => {
    const body = parse(AiPromptPreviewBody, req.body, res);
    if (!body) return;
    const problem = validateTemplate(body.template);
    if (problem) return fail(res, 400, 'BAD_REQUEST', problem, { template: [problem] });
    const question = OCS_AI_SAMPLES[body.type];
    res.json({ success: true, data: { prompt: renderPrompt(body.template, question), question } });
  }),

  on(ocsAiApi.listProviders, (_req, res) => res.json({ success: true, data: providers })),
  on(ocsAiApi.createProvider, (req, res) => {
    const body = parse(AiProviderBody, req.body, res);
    if (!body) return;
    if (badUrl(body.baseURL))
      return fail(res, 400, 'BAD_REQUEST', '接口地址不能包含用户名或密码', {
        baseURL: ['接口地址不能包含用户名或密码'],
      });
    if (providers.some((p) => p.name === body.name))
      return fail(res, 409, 'CONFLICT', '服务商名称已存在', { name: ['服务商名称已存在'] });
    const p: AiProvider = {
      id: nextProviderId++,
      name: body.name,
      baseURL: body.baseURL.replace(/\/+$/, ''),
      apiKeyMasked: mask(body.apiKey),
      modelCount: 0,
      createdAt: now(),
      updatedAt: now(),
    };
    providers = [...providers, p];
    res.json({ success: true, data: p });
  }),
  on(ocsAiApi.updateProvider, (req, res) => {
    const p = providerOf(req);
    if (!p) return fail(res, 404, 'NOT_FOUND', '服务商不存在');
    const body = parse(AiProviderPatchBody, req.body, res);
    if (!body) return;
    const { apiKey, ...rest } = body;
    const next = { ...p, ...rest, ...(apiKey ? { apiKeyMasked: mask(apiKey) } : {}), updatedAt: now() };
    providers = providers.map((x) => (x.id === p.id ? next : x));
    res.json({ success: true, data: next });
  }),
  on(ocsAiApi.deleteProvider, (req, res) => {
    const p = providerOf(req);
    if (!p) return fail(res, 404, 'NOT_FOUND', '服务商不存在');
    providers = providers.filter((x) => x.id !== p.id);
    models = models.filter((m) => m.providerId !== p.id);
    res.json({ success: true });
  }),

  on(ocsAiApi.listModels, (_req, res) => res.json({ success: true, data: models })),
  on(ocsAiApi.createModel, (req, res) => {
    const body = parse(AiModelBody, req.body, res);
    if (!body) return;
    if (!providers.some((p) => p.id === body.providerId))
      return fail(res, 400, 'BAD_REQUEST', '服务商不存在', { providerId: ['服务商不存在'] });
    const m = model({ id: nextModelId++, ...body });
    models = [...models, m];
    counted();
    res.json({ success: true, data: m });
  }),
  on(ocsAiApi.updateModel, (req, res) => {
    const m = modelOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '模型不存在');
    const body = parse(AiModelPatchBody, req.body, res);
    if (!body) return;
    const next = { ...m, ...body, updatedAt: now() };
    next.providerName = providers.find((p) => p.id === next.providerId)?.name ?? '';
    models = models.map((x) => (x.id === m.id ? next : x));
    counted();
    res.json({ success: true, data: next });
  }),
  on(ocsAiApi.deleteModel, (req, res) => {
    const m = modelOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '模型不存在');
    models = models.filter((x) => x.id !== m.id);
    counted();
    res.json({ success: true });
  }),
  on(ocsAiApi.testModel, (req, res) => {
    const m = modelOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '模型不存在');
    const body = parse(AiModelTestBody, req.body, res);
    if (!body) return;
    const question = OCS_AI_SAMPLES[body.type];
    const data =
      m.id === 3
        ? { ok: false, latencyMs: m.timeoutMs, question, raw: null, answer: null, error: 'AI 服务超时，未扣费' }
        : {
            ok: true,
            latencyMs: 812,
            question,
            raw: 'B',
            answer: body.type === 'single' ? '北京' : '正确',
            error: null,
          };
    res.json({ success: true, data });
  }),
);
