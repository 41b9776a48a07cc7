/**
 * DingTalk robot channels: the webhook and signing secret are stored encrypted and only ever leave
 * the server masked.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Channel, ChannelBody, ChannelPatchBody, ChannelTestResult } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { maskSecret, type SecretBox } from '../../lib/secretbox';
import { robotBody, sendToRobot } from './dingtalk';

export const DINGTALK_WEBHOOK = 'https://oapi.dingtalk.com/robot/send';
const MAX_CHANNELS = 20;

export interface UmsContext {
  secrets: SecretBox;
  /** Extra accepted webhook base URLs (UMS_WEBHOOK_ALLOWLIST). */
  allowlist: string[];
  timeoutMs: number;
}

export function parseAllowlist(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Accepts DingTalk's robot endpoint with an access_token, or a URL under an allow-listed base. */
export function validateWebhook(raw: string, allowlist: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Webhook 地址格式不正确', { webhook: ['Webhook 地址格式不正确'] });
  }
  const base = `${url.origin}${url.pathname}`;
  if (base === DINGTALK_WEBHOOK) {
    if (!/^[A-Za-z0-9]{16,128}$/.test(url.searchParams.get('access_token') ?? '')) {
      throw badRequest('Webhook 缺少有效的 access_token', { webhook: ['Webhook 缺少有效的 access_token'] });
    }
    return url.toString();
  }
  if (allowlist.some((allowed) => raw.startsWith(allowed))) return url.toString();
  throw badRequest('只接受钉钉机器人地址 https://oapi.dingtalk.com/robot/send?access_token=…', {
    webhook: ['只接受钉钉机器人 Webhook 地址'],
  });
}

function maskWebhook(webhook: string): string {
  const url = new URL(webhook);
  const token = url.searchParams.get('access_token');
  if (token) url.searchParams.set('access_token', maskSecret(token));
  return decodeURIComponent(url.toString());
}

type Row = Awaited<ReturnType<typeof selectChannels>>[number];
function selectChannels(db: Kysely<DB> | Transaction<DB>, userId: number) {
  return db
    .selectFrom('ums_channels')
    .select([
      'id',
      'name',
      'webhook_masked',
      'secret_masked',
      'keyword',
      'is_default',
      'created_at',
      'throttled_until',
      'last_success_at',
      'last_error_at',
      'last_error',
    ])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

function toChannel(r: Row): Channel {
  return {
    id: r.id,
    name: r.name,
    webhookMasked: r.webhook_masked,
    hasSecret: r.secret_masked !== null,
    secretMasked: r.secret_masked,
    keyword: r.keyword,
    isDefault: r.is_default,
    createdAt: r.created_at.toISOString(),
    throttledUntil: r.throttled_until?.toISOString() ?? null,
    lastSuccessAt: r.last_success_at?.toISOString() ?? null,
    lastErrorAt: r.last_error_at?.toISOString() ?? null,
    lastError: r.last_error,
  };
}

export async function listChannels(db: Kysely<DB>, userId: number): Promise<Channel[]> {
  return (await selectChannels(db, userId)).map(toChannel);
}

async function getChannel(db: Kysely<DB> | Transaction<DB>, userId: number, id: number): Promise<Channel> {
  const row = (await selectChannels(db, userId)).find((r) => r.id === id);
  if (!row) throw notFound('渠道不存在');
  return toChannel(row);
}

export async function createChannel(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  body: ChannelBody,
): Promise<Channel> {
  const webhook = validateWebhook(body.webhook, ctx.allowlist);
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    const existing = await trx.selectFrom('ums_channels').select(['id']).where('user_id', '=', userId).execute();
    if (existing.length >= MAX_CHANNELS) throw conflict(`最多绑定 ${MAX_CHANNELS} 个渠道`);
    const makeDefault = existing.length === 0 || Boolean(body.isDefault);
    if (makeDefault)
      await trx.updateTable('ums_channels').set({ is_default: false }).where('user_id', '=', userId).execute();
    const { id } = await trx
      .insertInto('ums_channels')
      .values({
        user_id: userId,
        name: body.name,
        webhook_enc: ctx.secrets.encrypt(webhook),
        webhook_masked: maskWebhook(webhook),
        secret_enc: body.secret ? ctx.secrets.encrypt(body.secret) : null,
        secret_masked: body.secret ? maskSecret(body.secret) : null,
        keyword: body.keyword || null,
        is_default: makeDefault,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return getChannel(trx, userId, id);
  });
}

export async function updateChannel(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  id: number,
  body: ChannelPatchBody,
): Promise<Channel> {
  return db.transaction().execute(async (trx) => {
    await getChannel(trx, userId, id);
    const set: Record<string, unknown> = { updated_at: sql`now()` };
    if (body.name !== undefined) set.name = body.name;
    if (body.webhook !== undefined) {
      const webhook = validateWebhook(body.webhook, ctx.allowlist);
      set.webhook_enc = ctx.secrets.encrypt(webhook);
      set.webhook_masked = maskWebhook(webhook);
    }
    if (body.secret !== undefined) {
      set.secret_enc = body.secret ? ctx.secrets.encrypt(body.secret) : null;
      set.secret_masked = body.secret ? maskSecret(body.secret) : null;
    }
    if (body.keyword !== undefined) set.keyword = body.keyword || null;
    if (body.isDefault) {
      await trx.updateTable('ums_channels').set({ is_default: false }).where('user_id', '=', userId).execute();
      set.is_default = true;
    }
    await trx.updateTable('ums_channels').set(set).where('id', '=', id).execute();
    return getChannel(trx, userId, id);
  });
}

export async function deleteChannel(db: Kysely<DB>, userId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ch = await getChannel(trx, userId, id);
    const pending = await trx
      .selectFrom('ums_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', id)
      .where('status', 'in', ['queued', 'sending', 'retrying'])
      .executeTakeFirstOrThrow();
    if (Number(pending.n) > 0) throw conflict(`该渠道还有 ${pending.n} 条待发送的消息，请先取消它们`);
    await trx.deleteFrom('ums_channels').where('id', '=', id).execute();
    if (ch.isDefault) {
      const next = await trx
        .selectFrom('ums_channels')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('id')
        .executeTakeFirst();
      if (next) await trx.updateTable('ums_channels').set({ is_default: true }).where('id', '=', next.id).execute();
    }
  });
}

/** Decrypted delivery parameters of a channel; server-side only. */
export async function channelSecrets(
  db: Kysely<DB>,
  ctx: UmsContext,
  channelId: number,
): Promise<{ webhook: string; secret: string | null; keyword: string | null; throttledUntil: Date | null } | null> {
  const row = await db
    .selectFrom('ums_channels')
    .select(['webhook_enc', 'secret_enc', 'keyword', 'throttled_until'])
    .where('id', '=', channelId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    webhook: ctx.secrets.decrypt(row.webhook_enc),
    secret: row.secret_enc ? ctx.secrets.decrypt(row.secret_enc) : null,
    keyword: row.keyword,
    throttledUntil: row.throttled_until,
  };
}

/** "Send test message": one synchronous attempt, answered with DingTalk's own errcode and errmsg. */
export async function testChannel(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  id: number,
): Promise<ChannelTestResult> {
  const ch = await getChannel(db, userId, id);
  const s = (await channelSecrets(db, ctx, id))!;
  const body = robotBody(
    { type: 'markdown', title: '统一门户测试消息', content: `#### 统一门户测试消息\n\n渠道「${ch.name}」配置正确。` },
    s.keyword,
  );
  const r = await sendToRobot(s.webhook, s.secret, body, ctx.timeoutMs);
  await recordChannelHealth(db, id, r.outcome === 'delivered', r.hint ?? r.errmsg);
  return {
    ok: r.outcome === 'delivered',
    httpStatus: r.httpStatus,
    errcode: r.errcode,
    errmsg: r.errmsg,
    durationMs: r.durationMs,
    hint: r.hint,
    detail: r.detail,
  };
}

export async function recordChannelHealth(
  db: Kysely<DB>,
  channelId: number,
  success: boolean,
  error: string | null,
): Promise<void> {
  await db
    .updateTable('ums_channels')
    .set(
      success
        ? { last_success_at: sql`now()` }
        : { last_error_at: sql`now()`, last_error: error?.slice(0, 500) ?? null },
    )
    .where('id', '=', channelId)
    .execute();
}
