/**
 * Typed client of OCS AI (src/contract/ocsAi.ts): the user's AI preferences, the models to pick
 * from, prompt defaults and preview; for administrators providers, models and the model test.
 */
// Type-only imports: the schemas stay out of the bundle unless a page needs them.
import type {
  AiAdminModelListResponse,
  AiAdminModelResponse,
  AiDeleteResponse,
  AiModelBody,
  AiModelOptionListResponse,
  AiModelPatchBody,
  AiModelTestResponse,
  AiPromptDefaultsResponse,
  AiPromptPreviewBody,
  AiPromptPreviewResponse,
  AiProviderBody,
  AiProviderListResponse,
  AiProviderPatchBody,
  AiProviderResponse,
  OcsAiType,
  OcsPreferencesBody,
  OcsPreferencesResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type PreferencesAnswer = z.infer<typeof OcsPreferencesResponse>;
export type ModelOptionsAnswer = z.infer<typeof AiModelOptionListResponse>;
export type PromptDefaultsAnswer = z.infer<typeof AiPromptDefaultsResponse>;
export type PromptPreviewAnswer = z.infer<typeof AiPromptPreviewResponse>;
export type ProviderListAnswer = z.infer<typeof AiProviderListResponse>;
export type ProviderAnswer = z.infer<typeof AiProviderResponse>;
export type AdminModelListAnswer = z.infer<typeof AiAdminModelListResponse>;
export type AdminModelAnswer = z.infer<typeof AiAdminModelResponse>;
export type ModelTestAnswer = z.infer<typeof AiModelTestResponse>;
export type AiDeleteAnswer = z.infer<typeof AiDeleteResponse>;

// ---------- users ----------

/** GET /api/ocs/preferences — with today's AI spending. */
export function fetchAiPreferences(options?: RequestOptions) {
  return request<PreferencesAnswer>('/api/ocs/preferences', { method: 'GET', ...options });
}

/** PUT /api/ocs/preferences — absent fields stay as they are, null resets; 400 with field errors. */
export function saveAiPreferences(body: OcsPreferencesBody, options?: RequestOptions) {
  return request<PreferencesAnswer>('/api/ocs/preferences', { method: 'PUT', data: body, ...options });
}

/** GET /api/ocs/models — enabled models with their price per answer. */
export function fetchAiModelOptions(options?: RequestOptions) {
  return request<ModelOptionsAnswer>('/api/ocs/models', { method: 'GET', ...options });
}

/** GET /api/ocs/prompt-defaults — default template per type, variables, limit and sample questions. */
export function fetchPromptDefaults(options?: RequestOptions) {
  return request<PromptDefaultsAnswer>('/api/ocs/prompt-defaults', { method: 'GET', ...options });
}

/** POST /api/ocs/prompt-preview — the template rendered for a sample question; 400 `template` when invalid. */
export function previewPrompt(body: AiPromptPreviewBody, options?: RequestOptions) {
  return request<PromptPreviewAnswer>('/api/ocs/prompt-preview', { method: 'POST', data: body, ...options });
}

// ---------- administrators ----------

/** GET /api/ocs/admin/providers — keys only masked. */
export function fetchAiProviders(options?: RequestOptions) {
  return request<ProviderListAnswer>('/api/ocs/admin/providers', { method: 'GET', ...options });
}

/** POST /api/ocs/admin/providers — 409 for a name already taken. */
export function createAiProvider(body: AiProviderBody, options?: RequestOptions) {
  return request<ProviderAnswer>('/api/ocs/admin/providers', { method: 'POST', data: body, ...options });
}

/** PATCH /api/ocs/admin/providers/:id — leave apiKey out to keep the stored key. */
export function updateAiProvider(id: number, body: AiProviderPatchBody, options?: RequestOptions) {
  return request<ProviderAnswer>(`/api/ocs/admin/providers/${id}`, { method: 'PATCH', data: body, ...options });
}

/** DELETE /api/ocs/admin/providers/:id — its models go with it. */
export function deleteAiProvider(id: number, options?: RequestOptions) {
  return request<AiDeleteAnswer>(`/api/ocs/admin/providers/${id}`, { method: 'DELETE', ...options });
}

/** GET /api/ocs/admin/models */
export function fetchAdminModels(options?: RequestOptions) {
  return request<AdminModelListAnswer>('/api/ocs/admin/models', { method: 'GET', ...options });
}

/** POST /api/ocs/admin/models */
export function createAdminModel(body: AiModelBody, options?: RequestOptions) {
  return request<AdminModelAnswer>('/api/ocs/admin/models', { method: 'POST', data: body, ...options });
}

/** PATCH /api/ocs/admin/models/:id */
export function updateAdminModel(id: number, body: AiModelPatchBody, options?: RequestOptions) {
  return request<AdminModelAnswer>(`/api/ocs/admin/models/${id}`, { method: 'PATCH', data: body, ...options });
}

/** DELETE /api/ocs/admin/models/:id */
export function deleteAdminModel(id: number, options?: RequestOptions) {
  return request<AiDeleteAnswer>(`/api/ocs/admin/models/${id}`, { method: 'DELETE', ...options });
}

/** POST /api/ocs/admin/models/:id/test — one sample question of the given type; failures come back as ok: false. */
export function testAdminModel(id: number, type: OcsAiType = 'single', options?: RequestOptions) {
  return request<ModelTestAnswer>(`/api/ocs/admin/models/${id}/test`, { method: 'POST', data: { type }, ...options });
}
