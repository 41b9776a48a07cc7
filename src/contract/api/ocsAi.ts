/**
 * OCS AI endpoints: the user's AI preferences, the models to pick from, prompt defaults and preview;
 * for administrators the OpenAI-compatible providers and their models (CRUD) and the model test.
 */
import { endpoint } from '../endpoint';

const tags = ['ocs-ai'];

// ---------- users ----------

/** With today's AI spending. */
export const getPreferences = endpoint({
  method: 'GET',
  path: '/api/ocs/preferences',
  access: 'user',
  tags,
  summary: '我的 AI 偏好（含今日 AI 消费）',
  schema: (c) => ({ response: c.OcsPreferencesResponse }),
});

/** Absent fields stay as they are, null resets; 400 with field errors. */
export const savePreferences = endpoint({
  method: 'PUT',
  path: '/api/ocs/preferences',
  access: 'user',
  tags,
  summary: '修改 AI 偏好（未提供的字段不变，null 恢复默认）',
  schema: (c) => ({ body: c.OcsPreferencesBody, response: c.OcsPreferencesResponse }),
});

/** Enabled models with their price per answer. */
export const modelOptions = endpoint({
  method: 'GET',
  path: '/api/ocs/models',
  access: 'user',
  tags,
  summary: '可选的 AI 模型及单价',
  schema: (c) => ({ response: c.AiModelOptionListResponse }),
});

/** Default template per type, variables, limit and sample questions. */
export const promptDefaults = endpoint({
  method: 'GET',
  path: '/api/ocs/prompt-defaults',
  access: 'user',
  tags,
  summary: '默认提示词模板、可用变量与示例题目',
  schema: (c) => ({ response: c.AiPromptDefaultsResponse }),
});

/** The template rendered for a sample question; 400 `template` when invalid. */
export const promptPreview = endpoint({
  method: 'POST',
  path: '/api/ocs/prompt-preview',
  access: 'user',
  tags,
  summary: '用示例题目预览提示词',
  schema: (c) => ({ body: c.AiPromptPreviewBody, response: c.AiPromptPreviewResponse }),
});

// ---------- administrators: providers ----------

/** Keys only masked. */
export const listProviders = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/providers',
  access: 'admin',
  tags,
  summary: 'AI 服务商列表（密钥仅显示掩码）',
  schema: (c) => ({ response: c.AiProviderListResponse }),
});

/** 409 for a name already taken. */
export const createProvider = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/providers',
  access: 'admin',
  tags,
  summary: '添加 AI 服务商',
  schema: (c) => ({ body: c.AiProviderBody, response: c.AiProviderResponse }),
});

/** Leave apiKey out to keep the stored key. */
export const updateProvider = endpoint({
  method: 'PATCH',
  path: '/api/ocs/admin/providers/:id',
  access: 'admin',
  tags,
  summary: '修改 AI 服务商（密钥留空保持不变）',
  schema: (c) => ({ params: c.IdParams, body: c.AiProviderPatchBody, response: c.AiProviderResponse }),
});

/** Its models go with it. */
export const deleteProvider = endpoint({
  method: 'DELETE',
  path: '/api/ocs/admin/providers/:id',
  access: 'admin',
  tags,
  summary: '删除 AI 服务商及其模型',
  schema: (c) => ({ params: c.IdParams, response: c.AiDeleteResponse }),
});

// ---------- administrators: models ----------

export const listModels = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/models',
  access: 'admin',
  tags,
  summary: 'AI 模型列表',
  schema: (c) => ({ response: c.AiAdminModelListResponse }),
});

export const createModel = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/models',
  access: 'admin',
  tags,
  summary: '添加 AI 模型',
  schema: (c) => ({ body: c.AiModelBody, response: c.AiAdminModelResponse }),
});

export const updateModel = endpoint({
  method: 'PATCH',
  path: '/api/ocs/admin/models/:id',
  access: 'admin',
  tags,
  summary: '修改 AI 模型',
  schema: (c) => ({ params: c.IdParams, body: c.AiModelPatchBody, response: c.AiAdminModelResponse }),
});

export const deleteModel = endpoint({
  method: 'DELETE',
  path: '/api/ocs/admin/models/:id',
  access: 'admin',
  tags,
  summary: '删除 AI 模型',
  schema: (c) => ({ params: c.IdParams, response: c.AiDeleteResponse }),
});

/** One sample question of the given type; failures come back as ok: false. Rate-limited by the server. */
export const testModel = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/models/:id/test',
  access: 'admin',
  tags,
  summary: '用一道示例题测试模型（返回耗时与解析结果）',
  schema: (c) => ({ params: c.IdParams, body: c.AiModelTestOptionalBody, response: c.AiModelTestResponse }),
});
