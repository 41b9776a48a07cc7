/**
 * Typed client of OCS AI (src/contract/api/ocsAi.ts): the user's AI preferences, the models to pick
 * from, prompt defaults and preview; for administrators providers, models and the model test.
 */
import * as api from '@/contract/api/ocsAi';
import type { AnswerOf } from '@/contract/endpoint';
import type {
  AiModelBody,
  AiModelPatchBody,
  AiPromptPreviewBody,
  AiProviderBody,
  AiProviderPatchBody,
  OcsAiType,
  OcsPreferencesBody,
} from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';

export type PreferencesAnswer = AnswerOf<typeof api.getPreferences>;
export type ModelOptionsAnswer = AnswerOf<typeof api.modelOptions>;
export type PromptDefaultsAnswer = AnswerOf<typeof api.promptDefaults>;
export type PromptPreviewAnswer = AnswerOf<typeof api.promptPreview>;
export type ProviderListAnswer = AnswerOf<typeof api.listProviders>;
export type ProviderAnswer = AnswerOf<typeof api.createProvider>;
export type AdminModelListAnswer = AnswerOf<typeof api.listModels>;
export type AdminModelAnswer = AnswerOf<typeof api.createModel>;
export type ModelTestAnswer = AnswerOf<typeof api.testModel>;
export type AiDeleteAnswer = AnswerOf<typeof api.deleteProvider>;

// ---------- users ----------

/** With today's AI spending. */
export const fetchAiPreferences = (options?: RequestOptions) => call(api.getPreferences, {}, options);

/** Absent fields stay as they are, null resets; 400 with field errors. */
export const saveAiPreferences = (body: OcsPreferencesBody, options?: RequestOptions) =>
  call(api.savePreferences, { body }, options);

/** Enabled models with their price per answer. */
export const fetchAiModelOptions = (options?: RequestOptions) => call(api.modelOptions, {}, options);

/** Default template per type, variables, limit and sample questions. */
export const fetchPromptDefaults = (options?: RequestOptions) => call(api.promptDefaults, {}, options);

/** The template rendered for a sample question; 400 `template` when invalid. */
export const previewPrompt = (body: AiPromptPreviewBody, options?: RequestOptions) =>
  call(api.promptPreview, { body }, options);

// ---------- administrators ----------

/** Keys only masked. */
export const fetchAiProviders = (options?: RequestOptions) => call(api.listProviders, {}, options);

/** 409 for a name already taken. */
export const createAiProvider = (body: AiProviderBody, options?: RequestOptions) =>
  call(api.createProvider, { body }, options);

/** Leave apiKey out to keep the stored key. */
export const updateAiProvider = (id: number, body: AiProviderPatchBody, options?: RequestOptions) =>
  call(api.updateProvider, { params: { id }, body }, options);

/** Its models go with it. */
export const deleteAiProvider = (id: number, options?: RequestOptions) =>
  call(api.deleteProvider, { params: { id } }, options);

export const fetchAdminModels = (options?: RequestOptions) => call(api.listModels, {}, options);

export const createAdminModel = (body: AiModelBody, options?: RequestOptions) =>
  call(api.createModel, { body }, options);

export const updateAdminModel = (id: number, body: AiModelPatchBody, options?: RequestOptions) =>
  call(api.updateModel, { params: { id }, body }, options);

export const deleteAdminModel = (id: number, options?: RequestOptions) =>
  call(api.deleteModel, { params: { id } }, options);

/** One sample question of the given type; failures come back as ok: false. */
export const testAdminModel = (id: number, type: OcsAiType = 'single', options?: RequestOptions) =>
  call(api.testModel, { params: { id }, body: { type } }, options);
