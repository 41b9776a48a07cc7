/**
 * HTTP layer of OCS AI, under /api/ocs: the user's preferences, the models to pick from, prompt
 * defaults and preview; and for administrators providers and models (CRUD) and the model test.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AiAdminModelListResponse,
  AiAdminModelResponse,
  AiDeleteResponse,
  AiModelBody,
  AiModelOptionListResponse,
  AiModelPatchBody,
  AiModelTestBody,
  AiModelTestResponse,
  AiPromptDefaultsResponse,
  AiPromptPreviewBody,
  AiPromptPreviewResponse,
  AiProviderBody,
  AiProviderListResponse,
  AiProviderPatchBody,
  AiProviderResponse,
  IdParams,
  OCS_AI_SAMPLES,
  OcsPreferencesBody,
  OcsPreferencesResponse,
} from '../../../../src/contract';
import type { AppDeps } from '../../../app';
import { badRequest } from '../../../errors';
import { actorOf } from '../../../plugins/auth';
import { getPreferences, setPreferences, type PreferencesCache } from './preferences';
import { DEFAULT_PROMPT_TEMPLATES, renderPrompt, TEMPLATE_MAX_LENGTH, validateTemplate } from './prompt';
import * as admin from './providers';

const tags = ['ocs-ai'];
const VARIABLES = [
  { name: '${title}', label: '题目（必填）' },
  { name: '${type}', label: '题型，如“单选题”' },
  { name: '${options}', label: '选项，每行一个，带 A. B. 标号' },
];

const routes: FastifyPluginAsyncZod<AppDeps & { preferences: PreferencesCache }> = async (
  app,
  { db, config, secrets, preferences },
) => {
  const user = { auth: 'user' as const };
  const adminOnly = { auth: 'admin' as const };

  // ---------- users ----------
  app.get(
    '/preferences',
    {
      config: user,
      schema: { tags, summary: '我的 AI 偏好（含今日 AI 消费）', response: { 200: OcsPreferencesResponse } },
    },
    async (request) => ({ success: true as const, data: await getPreferences(db, request.user!.id, config.PORTAL_TZ) }),
  );
  app.put(
    '/preferences',
    {
      config: user,
      schema: {
        tags,
        summary: '修改 AI 偏好（未提供的字段不变，null 恢复默认）',
        body: OcsPreferencesBody,
        response: { 200: OcsPreferencesResponse },
      },
    },
    async (request) => {
      const userId = request.user!.id;
      await setPreferences(db, userId, request.body);
      preferences.invalidate(userId);
      return { success: true as const, data: await getPreferences(db, userId, config.PORTAL_TZ) };
    },
  );
  app.get(
    '/models',
    { config: user, schema: { tags, summary: '可选的 AI 模型及单价', response: { 200: AiModelOptionListResponse } } },
    async () => {
      const models = (await admin.listModels(db)).filter((m) => m.enabled);
      return {
        success: true as const,
        data: models.map(({ id, displayName, model, price }) => ({ id, displayName, model, price })),
      };
    },
  );
  app.get(
    '/prompt-defaults',
    {
      config: user,
      schema: { tags, summary: '默认提示词模板、可用变量与示例题目', response: { 200: AiPromptDefaultsResponse } },
    },
    async () => ({
      success: true as const,
      data: {
        templates: DEFAULT_PROMPT_TEMPLATES,
        variables: VARIABLES,
        maxLength: TEMPLATE_MAX_LENGTH,
        samples: OCS_AI_SAMPLES,
      },
    }),
  );
  app.post(
    '/prompt-preview',
    {
      config: user,
      schema: {
        tags,
        summary: '用示例题目预览提示词',
        body: AiPromptPreviewBody,
        response: { 200: AiPromptPreviewResponse },
      },
    },
    async (request) => {
      const problem = validateTemplate(request.body.template);
      if (problem) throw badRequest(problem, { template: [problem] });
      const question = OCS_AI_SAMPLES[request.body.type];
      return { success: true as const, data: { prompt: renderPrompt(request.body.template, question), question } };
    },
  );

  // ---------- administrators: providers ----------
  app.get(
    '/admin/providers',
    {
      config: adminOnly,
      schema: { tags, summary: 'AI 服务商列表（密钥仅显示掩码）', response: { 200: AiProviderListResponse } },
    },
    async () => ({ success: true as const, data: await admin.listProviders(db) }),
  );
  app.post(
    '/admin/providers',
    {
      config: adminOnly,
      schema: { tags, summary: '添加 AI 服务商', body: AiProviderBody, response: { 200: AiProviderResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await admin.createProvider(db, secrets, actorOf(request), request.body),
    }),
  );
  app.patch(
    '/admin/providers/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: '修改 AI 服务商（密钥留空保持不变）',
        params: IdParams,
        body: AiProviderPatchBody,
        response: { 200: AiProviderResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.updateProvider(db, secrets, actorOf(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/admin/providers/:id',
    {
      config: adminOnly,
      schema: { tags, summary: '删除 AI 服务商及其模型', params: IdParams, response: { 200: AiDeleteResponse } },
    },
    async (request) => {
      await admin.deleteProvider(db, actorOf(request), request.params.id);
      return { success: true as const };
    },
  );

  // ---------- administrators: models ----------
  app.get(
    '/admin/models',
    { config: adminOnly, schema: { tags, summary: 'AI 模型列表', response: { 200: AiAdminModelListResponse } } },
    async () => ({ success: true as const, data: await admin.listModels(db) }),
  );
  app.post(
    '/admin/models',
    {
      config: adminOnly,
      schema: { tags, summary: '添加 AI 模型', body: AiModelBody, response: { 200: AiAdminModelResponse } },
    },
    async (request) => ({ success: true as const, data: await admin.createModel(db, actorOf(request), request.body) }),
  );
  app.patch(
    '/admin/models/:id',
    {
      config: adminOnly,
      schema: {
        tags,
        summary: '修改 AI 模型',
        params: IdParams,
        body: AiModelPatchBody,
        response: { 200: AiAdminModelResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.updateModel(db, actorOf(request), request.params.id, request.body),
    }),
  );
  app.delete(
    '/admin/models/:id',
    {
      config: adminOnly,
      schema: { tags, summary: '删除 AI 模型', params: IdParams, response: { 200: AiDeleteResponse } },
    },
    async (request) => {
      await admin.deleteModel(db, actorOf(request), request.params.id);
      return { success: true as const };
    },
  );
  app.post(
    '/admin/models/:id/test',
    {
      config: { ...adminOnly, rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: '用一道示例题测试模型（返回耗时与解析结果）',
        params: IdParams,
        body: AiModelTestBody.nullish(),
        response: { 200: AiModelTestResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.testModel(db, secrets, request.params.id, request.body?.type ?? 'single'),
    }),
  );
};

export default routes;
