/**
 * Administration of AI providers (OpenAI-compatible endpoints) and their models. A provider's API
 * key is stored encrypted and leaves this module only masked; every change writes an audit row (with
 * the masked key at most). Also the "test" of a model: one sample question through the real call.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  OCS_AI_SAMPLES,
  type AiAdminModel,
  type AiModelBody,
  type AiModelPatchBody,
  type AiModelTestResult,
  type AiProvider,
  type AiProviderBody,
  type AiProviderPatchBody,
  type OcsAiType,
} from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { badRequest, conflict, notFound } from '../../../errors';
import { INWARD_ADMIN_URL, pointsInward } from '../../../lib/outbound';
import { maskSecret, type SecretBox } from '../../../lib/secretbox';
import { diff, recordAudit, type Actor } from '../../audit';
import { callModel, type AiModelConfig } from './client';
import { parseAiReply } from './parse';
import { DEFAULT_PROMPT_TEMPLATES, answerText, renderPrompt } from '@contract';

type Db = Kysely<DB> | Transaction<DB>;

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/**
 * http(s) only and no credentials in the URL (the key belongs in the key field, where it is encrypted);
 * not an address inside the server's network unless allow-listed (ADMIN_URL_ALLOWLIST).
 */
export function validateBaseUrl(raw: string, allowlist: readonly string[]): string {
  const bad = (msg: string) => badRequest(msg, { baseURL: [msg] });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw bad('接口地址格式不正确');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('接口地址须以 http:// 或 https:// 开头');
  if (url.username || url.password) throw bad('接口地址不能包含用户名或密码，请把密钥填在 API 密钥中');
  if (url.search || url.hash) throw bad('接口地址不能包含查询参数');
  const normalized = url.toString().replace(/\/+$/, '');
  if (pointsInward(normalized, allowlist)) throw bad(`接口地址${INWARD_ADMIN_URL}`);
  return normalized;
}

// ---------- providers ----------

async function providerRows(db: Db, id?: number): Promise<AiProvider[]> {
  let q = db
    .selectFrom('ocs_providers as p')
    .select(['p.id', 'p.name', 'p.base_url', 'p.api_key_masked', 'p.created_at', 'p.updated_at'])
    .select((eb) =>
      eb
        .selectFrom('ocs_models as m')
        .whereRef('m.provider_id', '=', 'p.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('model_count'),
    )
    .orderBy('p.id');
  if (id !== undefined) q = q.where('p.id', '=', id);
  return (await q.execute()).map((r) => ({
    id: r.id,
    name: r.name,
    baseURL: r.base_url,
    apiKeyMasked: r.api_key_masked,
    modelCount: Number(r.model_count ?? 0),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

export const listProviders = (db: Kysely<DB>) => providerRows(db);

async function getProvider(db: Db, id: number): Promise<AiProvider> {
  const [p] = await providerRows(db, id);
  if (!p) throw notFound('服务商不存在');
  return p;
}

const auditView = (p: AiProvider) => ({ name: p.name, baseURL: p.baseURL, apiKeyMasked: p.apiKeyMasked });
/** Bumped after every write that may change which models are usable (anyModelUsable's cache). */
let modelsGeneration = 0;

/** A transaction that may change which models are usable: the cache below is dropped after it. */
function changingModels(db: Kysely<DB>) {
  return {
    execute: <T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> =>
      db
        .transaction()
        .execute(fn)
        .finally(() => modelsGeneration++),
  };
}

/**
 * Whether any enabled model of an existing provider is there to answer, as callableModel(…, 'cheapest')
 * would find one: kept for `ttlMs` by this process (writes made here drop it at once; other instances'
 * writes are seen within `ttlMs`). A miss with no model then costs no read of the model tables.
 */
export function anyModelUsable(db: Kysely<DB>, ttlMs = 5_000): () => Promise<boolean> {
  let cached: { at: number; generation: number; value: boolean } | null = null;
  return async () => {
    if (cached && cached.generation === modelsGeneration && Date.now() - cached.at <= ttlMs) return cached.value;
    const generation = modelsGeneration;
    const at = Date.now();
    const r = await db
      .selectFrom('ocs_models as m')
      .innerJoin('ocs_providers as p', 'p.id', 'm.provider_id')
      .select('m.id')
      .where('m.enabled', '=', true)
      .limit(1)
      .executeTakeFirst();
    cached = { at, generation, value: r !== undefined };
    return cached.value;
  };
}

const nameTaken = () => conflict('服务商名称已存在', { name: ['服务商名称已存在'] });

export async function createProvider(
  db: Kysely<DB>,
  secrets: SecretBox,
  actor: Actor,
  body: AiProviderBody,
  allowlist: readonly string[],
): Promise<AiProvider> {
  const baseURL = validateBaseUrl(body.baseURL, allowlist);
  try {
    return await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('ocs_providers')
        .values({
          name: body.name,
          base_url: baseURL,
          api_key_enc: secrets.encrypt(body.apiKey),
          api_key_masked: maskSecret(body.apiKey),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const p = await getProvider(trx, id);
      await recordAudit(trx, actor, {
        action: 'ocs.provider.create',
        targetType: 'ocs_provider',
        targetId: id,
        targetName: p.name,
        after: auditView(p),
      });
      return p;
    });
  } catch (err) {
    throw isUniqueViolation(err) ? nameTaken() : err;
  }
}

export async function updateProvider(
  db: Kysely<DB>,
  secrets: SecretBox,
  actor: Actor,
  id: number,
  body: AiProviderPatchBody,
  allowlist: readonly string[],
): Promise<AiProvider> {
  const baseURL = body.baseURL === undefined ? undefined : validateBaseUrl(body.baseURL, allowlist);
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await getProvider(trx, id);
      await trx
        .updateTable('ocs_providers')
        .set({
          updated_at: sql`now()`,
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(baseURL !== undefined ? { base_url: baseURL } : {}),
          ...(body.apiKey
            ? { api_key_enc: secrets.encrypt(body.apiKey), api_key_masked: maskSecret(body.apiKey) }
            : {}),
        })
        .where('id', '=', id)
        .execute();
      const after = await getProvider(trx, id);
      const changed = diff(auditView(before), auditView(after));
      // A new key with the same first and last characters masks the same: still worth a line.
      if (body.apiKey) changed.after.apiKey = '已更换';
      await recordAudit(trx, actor, {
        action: 'ocs.provider.update',
        targetType: 'ocs_provider',
        targetId: id,
        targetName: after.name,
        ...changed,
      });
      return after;
    });
  } catch (err) {
    throw isUniqueViolation(err) ? nameTaken() : err;
  }
}

/** Its models go with it; users who had picked one fall back to the cheapest enabled model. */
export async function deleteProvider(db: Kysely<DB>, actor: Actor, id: number): Promise<void> {
  await changingModels(db).execute(async (trx) => {
    const before = await getProvider(trx, id);
    await trx.deleteFrom('ocs_providers').where('id', '=', id).execute();
    await recordAudit(trx, actor, {
      action: 'ocs.provider.delete',
      targetType: 'ocs_provider',
      targetId: id,
      targetName: before.name,
      before: { ...auditView(before), modelCount: before.modelCount },
    });
  });
}

// ---------- models ----------

async function modelRows(db: Db, id?: number): Promise<AiAdminModel[]> {
  let q = db
    .selectFrom('ocs_models as m')
    .innerJoin('ocs_providers as p', 'p.id', 'm.provider_id')
    .select([
      'm.id',
      'm.provider_id',
      'p.name as provider_name',
      'm.model',
      'm.display_name',
      'm.price',
      'm.enabled',
      'm.timeout_ms',
      'm.max_tokens',
      'm.created_at',
      'm.updated_at',
    ])
    .orderBy('m.id');
  if (id !== undefined) q = q.where('m.id', '=', id);
  return (await q.execute()).map((r) => ({
    id: r.id,
    providerId: r.provider_id,
    providerName: r.provider_name,
    model: r.model,
    displayName: r.display_name,
    price: r.price,
    enabled: r.enabled,
    timeoutMs: r.timeout_ms,
    maxTokens: r.max_tokens,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

export const listModels = (db: Kysely<DB>) => modelRows(db);

async function getModel(db: Db, id: number): Promise<AiAdminModel> {
  const [m] = await modelRows(db, id);
  if (!m) throw notFound('模型不存在');
  return m;
}

async function requireProvider(db: Db, id: number): Promise<void> {
  const p = await db.selectFrom('ocs_providers').select('id').where('id', '=', id).executeTakeFirst();
  if (!p) throw badRequest('服务商不存在', { providerId: ['服务商不存在'] });
}

const modelView = ({ id: _i, createdAt: _c, updatedAt: _u, ...rest }: AiAdminModel) => rest;

export async function createModel(db: Kysely<DB>, actor: Actor, body: Required<AiModelBody>): Promise<AiAdminModel> {
  return changingModels(db).execute(async (trx) => {
    await requireProvider(trx, body.providerId);
    const { id } = await trx
      .insertInto('ocs_models')
      .values({
        provider_id: body.providerId,
        model: body.model,
        display_name: body.displayName,
        price: body.price,
        enabled: body.enabled,
        timeout_ms: body.timeoutMs,
        max_tokens: body.maxTokens,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const m = await getModel(trx, id);
    await recordAudit(trx, actor, {
      action: 'ocs.model.create',
      targetType: 'ocs_model',
      targetId: id,
      targetName: m.displayName,
      after: modelView(m),
    });
    return m;
  });
}

export async function updateModel(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  body: AiModelPatchBody,
): Promise<AiAdminModel> {
  return changingModels(db).execute(async (trx) => {
    const before = await getModel(trx, id);
    if (body.providerId !== undefined) await requireProvider(trx, body.providerId);
    await trx
      .updateTable('ocs_models')
      .set({
        updated_at: sql`now()`,
        ...(body.providerId !== undefined ? { provider_id: body.providerId } : {}),
        ...(body.model !== undefined ? { model: body.model } : {}),
        ...(body.displayName !== undefined ? { display_name: body.displayName } : {}),
        ...(body.price !== undefined ? { price: body.price } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        ...(body.timeoutMs !== undefined ? { timeout_ms: body.timeoutMs } : {}),
        ...(body.maxTokens !== undefined ? { max_tokens: body.maxTokens } : {}),
      })
      .where('id', '=', id)
      .execute();
    const after = await getModel(trx, id);
    await recordAudit(trx, actor, {
      action: 'ocs.model.update',
      targetType: 'ocs_model',
      targetId: id,
      targetName: after.displayName,
      ...diff(modelView(before), modelView(after)),
    });
    return after;
  });
}

export async function deleteModel(db: Kysely<DB>, actor: Actor, id: number): Promise<void> {
  await changingModels(db).execute(async (trx) => {
    const before = await getModel(trx, id);
    await trx.deleteFrom('ocs_models').where('id', '=', id).execute();
    await recordAudit(trx, actor, {
      action: 'ocs.model.delete',
      targetType: 'ocs_model',
      targetId: id,
      targetName: before.displayName,
      before: modelView(before),
    });
  });
}

// ---------- calling a model ----------

export interface CallableModel {
  id: number;
  price: number;
  enabled: boolean;
  providerName: string;
  config: AiModelConfig;
}

/** A model with its provider's endpoint and decrypted key; server-side only, never serialised. */
export async function callableModel(
  db: Kysely<DB>,
  secrets: SecretBox,
  where: { id: number } | 'cheapest',
  allowlist: readonly string[],
): Promise<CallableModel | null> {
  let q = db
    .selectFrom('ocs_models as m')
    .innerJoin('ocs_providers as p', 'p.id', 'm.provider_id')
    .select([
      'm.id',
      'm.model',
      'm.price',
      'm.enabled',
      'm.timeout_ms',
      'm.max_tokens',
      'p.name',
      'p.base_url',
      'p.api_key_enc',
    ]);
  q =
    where === 'cheapest'
      ? q.where('m.enabled', '=', true).orderBy('m.price').orderBy('m.id').limit(1)
      : q.where('m.id', '=', where.id);
  const r = await q.executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    price: r.price,
    enabled: r.enabled,
    providerName: r.name,
    config: {
      baseURL: r.base_url,
      apiKey: secrets.decrypt(r.api_key_enc),
      model: r.model,
      timeoutMs: r.timeout_ms,
      maxTokens: r.max_tokens,
      allowlist,
    },
  };
}

/** One sample question with the default prompt, through the same call and parser as real answers. */
export async function testModel(
  db: Kysely<DB>,
  secrets: SecretBox,
  id: number,
  type: OcsAiType,
  allowlist: readonly string[],
): Promise<AiModelTestResult> {
  const model = await callableModel(db, secrets, { id }, allowlist);
  if (!model) throw notFound('模型不存在');
  const question = OCS_AI_SAMPLES[type];
  const reply = await callModel(model.config, renderPrompt(DEFAULT_PROMPT_TEMPLATES[type], question));
  if (!reply.ok)
    return { ok: false, latencyMs: reply.latencyMs, question, raw: null, answer: null, error: reply.message };
  const parsed = parseAiReply(reply.text, question);
  return 'answer' in parsed
    ? {
        ok: true,
        latencyMs: reply.latencyMs,
        question,
        raw: reply.text,
        answer: answerText(parsed.answer),
        error: null,
      }
    : { ok: false, latencyMs: reply.latencyMs, question, raw: reply.text, answer: null, error: parsed.error };
}
