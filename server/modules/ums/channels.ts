/**
 * Channels of every kind (DingTalk, WeCom, Feishu, generic webhook, e-mail). Addresses and secrets
 * (webhooks, signing secrets, a webhook's headers) are stored encrypted and only ever leave the server
 * masked; each kind's adapter (./kinds) checks its own address and settings. An e-mail channel is
 * saved unconfirmed and its address mailed a confirmation link (consent.ts): nothing is sent to it,
 * not even a test, until that link is opened.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  CHANNEL_KIND_LABELS,
  CHANNEL_KINDS,
  channelFieldIssues,
  type Channel,
  type ChannelBody,
  type ChannelKind,
  type ChannelKindInfo,
  type ChannelPatchBody,
  type ChannelTestResult,
  type EmailConsent,
  type WebhookHeader,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { maskSecret, type SecretBox } from '../../lib/secretbox';
import { awaitsConsent, consentOf, mailConfirmation, reserveConfirmation } from './consent';
import { adapterOf, type ChannelTarget, type UmsContext, type WebhookConfig } from './kinds';
import { maskHeaders, webhookConfig } from './kinds/webhook';

export type { UmsContext };

const MAX_CHANNELS = 20;
const HEALTH_DAYS = 7;

export function parseAllowlist(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

type Row = Awaited<ReturnType<typeof selectChannels>>[number];
function selectChannels(db: Kysely<DB> | Transaction<DB>, userId: number) {
  return db
    .selectFrom('ums_channels')
    .select([
      'id',
      'kind',
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
      'config',
      'config_enc',
      'quiet_start',
      'quiet_end',
      'digest_after_seconds',
      'confirmed_at',
    ])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** `22:30` <-> 1350 minutes after midnight. */
export const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const fromMinutes = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** Quiet hours as stored: both minutes, or both null ('' clears them). */
function quietColumns(body: ChannelPatchBody): { quiet_start: number | null; quiet_end: number | null } | null {
  if (body.quietStart === undefined || body.quietEnd === undefined) return null;
  return body.quietStart
    ? { quiet_start: toMinutes(body.quietStart), quiet_end: toMinutes(body.quietEnd) }
    : { quiet_start: null, quiet_end: null };
}

type Health = Channel['health'];

/** Attempts of the last 7 days per channel: how many ended, how many delivered. */
export async function channelHealth(db: Kysely<DB> | Transaction<DB>, ids: number[]): Promise<Map<number, Health>> {
  const out = new Map<number, Health>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('ums_attempts')
    .select((eb) => [
      'channel_id',
      eb.fn.countAll<number>().as('attempts'),
      eb.fn.count<number>('id').filterWhere('outcome', '=', 'delivered').as('delivered'),
    ])
    .where('channel_id', 'in', ids)
    .where('outcome', '!=', 'pending')
    .where('at', '>', sql<Date>`now() - make_interval(days => ${HEALTH_DAYS})`)
    .groupBy('channel_id')
    .execute();
  for (const r of rows) {
    const attempts = Number(r.attempts);
    const delivered = Number(r.delivered);
    out.set(r.channel_id!, { attempts, delivered, successRate: attempts ? delivered / attempts : null });
  }
  return out;
}

function toChannel(r: Row, health: Health | undefined, consent: EmailConsent | undefined, ctx: UmsContext): Channel {
  const cfg = r.config as WebhookConfig | null;
  const headers: WebhookHeader[] = r.config_enc ? JSON.parse(ctx.secrets.decrypt(r.config_enc)) : [];
  return {
    id: r.id,
    kind: r.kind as ChannelKind,
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
    webhookSettings:
      r.kind === 'webhook' && cfg
        ? {
            method: cfg.method,
            headers: maskHeaders(headers),
            bodyTemplate: cfg.bodyTemplate,
            successStatus: cfg.successStatus,
            successPath: cfg.successPath,
            successValue: cfg.successValue,
            perMinute: cfg.perMinute,
          }
        : null,
    health: health ?? { attempts: 0, delivered: 0, successRate: null },
    quietHours:
      r.quiet_start !== null && r.quiet_end !== null
        ? { start: fromMinutes(r.quiet_start), end: fromMinutes(r.quiet_end) }
        : null,
    digestAfterSeconds: r.digest_after_seconds,
    emailConsent: consent ?? null,
  };
}

export async function listChannels(db: Kysely<DB>, ctx: UmsContext, userId: number): Promise<Channel[]> {
  const rows = await selectChannels(db, userId);
  const health = await channelHealth(
    db,
    rows.map((r) => r.id),
  );
  const consent = await consentOf(db, rows);
  return rows.map((r) => toChannel(r, health.get(r.id), consent.get(r.id), ctx));
}

export async function getChannel(
  db: Kysely<DB> | Transaction<DB>,
  ctx: UmsContext,
  userId: number,
  id: number,
): Promise<Channel> {
  const row = (await selectChannels(db, userId)).find((r) => r.id === id);
  if (!row) throw notFound('渠道不存在');
  return toChannel(row, (await channelHealth(db, [id])).get(id), (await consentOf(db, [row])).get(id), ctx);
}

/** Per kind: offered on this server or not, and the pacing the worker keeps. */
export function channelKinds(ctx: UmsContext): ChannelKindInfo[] {
  const perMinute = (n: number, what: string) => (n > 0 ? `每${what}每分钟最多 ${n} 条` : '不限速');
  const pacing: Record<ChannelKind, string> = {
    dingtalk: `${perMinute(ctx.pacing.robotPerMinute, '个机器人')}；被钉钉限流时暂停 10 分钟`,
    wecom: `${perMinute(ctx.pacing.robotPerMinute, '个机器人')}；被企业微信限流时暂停 1 分钟`,
    feishu:
      ctx.pacing.feishuPerMinute > 0
        ? `每个机器人每分钟最多 ${ctx.pacing.feishuPerMinute} 条、每秒最多 5 条；被飞书限流时暂停 1 分钟`
        : '不限速',
    webhook: '每个 Webhook 可单独设置每分钟条数；目标返回 429 时按 Retry-After 暂停',
    email: `${perMinute(ctx.pacing.emailPerMinute, '个收件地址')}；邮件服务器限流时暂停 5 分钟`,
  };
  return CHANNEL_KINDS.map((kind) => ({
    kind,
    label: CHANNEL_KIND_LABELS[kind],
    available: kind !== 'email' || (ctx.mailer !== null && ctx.consent.baseUrl !== null),
    reason:
      kind !== 'email'
        ? null
        : !ctx.mailer
          ? '服务器没有配置 SMTP_URL，管理员配置后才能使用邮件渠道'
          : !ctx.consent.baseUrl
            ? '服务器没有配置 PUBLIC_URL（邮箱确认链接需要它），管理员配置后才能使用邮件渠道'
            : null,
    pacing: pacing[kind],
  }));
}

/** The kind's own rules over the fields given (which fields it has, the format of its secret). */
function checkFields(kind: ChannelKind, body: ChannelPatchBody, mode: 'create' | 'update'): void {
  const issues = channelFieldIssues(kind, body, mode);
  if (issues.length === 0) return;
  const data: Record<string, string[]> = {};
  for (const i of issues) (data[i.path] ??= []).push(i.message);
  throw badRequest(`输入有误：${issues[0].message}`, data);
}

interface Stored {
  /** The address as checked by the kind (not stored as such: it is sealed into webhook_enc). */
  address: string;
  webhook_enc: string;
  webhook_masked: string;
  config: string | null;
  config_enc: string | null;
}

/** Address and webhook settings, checked by the kind and sealed for storage. */
function sealed(
  kind: ChannelKind,
  ctx: UmsContext,
  body: ChannelPatchBody,
  previous: { config: WebhookConfig | null; headers: WebhookHeader[] } | null,
): Partial<Stored> {
  const adapter = adapterOf(kind);
  const out: Partial<Stored> = {};
  const raw = kind === 'email' ? body.email : body.webhook;
  if (raw !== undefined) {
    const address = adapter.address(raw, ctx);
    out.address = address;
    out.webhook_enc = ctx.secrets.encrypt(address);
    out.webhook_masked = adapter.mask(address);
  }
  if (kind === 'webhook') {
    const headers = body.headers ?? previous?.headers ?? [];
    const cfg = webhookConfig(body, headers, previous?.config ?? undefined);
    out.config = JSON.stringify(cfg);
    if (body.headers !== undefined)
      out.config_enc = headers.length ? ctx.secrets.encrypt(JSON.stringify(headers)) : null;
  }
  return out;
}

/**
 * The address (by its pace key: a hash of it) already agreed to this user's messages, through another
 * of their channels: the channel is confirmed as well, and nothing is mailed.
 */
async function agreed(trx: Transaction<DB>, userId: number, paceKey: string, id: number, now: Date): Promise<boolean> {
  const other = await trx
    .selectFrom('ums_channels')
    .select('id')
    .where('user_id', '=', userId)
    .where('kind', '=', 'email')
    .where('pace_key', '=', paceKey)
    .where('id', '<>', id)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  if (!other) return false;
  await trx.updateTable('ums_channels').set({ confirmed_at: now }).where('id', '=', id).execute();
  return true;
}

export async function createChannel(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  body: ChannelBody,
  now = new Date(),
): Promise<Channel> {
  const kind = body.kind ?? 'dingtalk';
  checkFields(kind, body, 'create');
  const stored = sealed(kind, ctx, body, null) as Stored;
  const { id, mail } = await db.transaction().execute(async (trx) => {
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
        kind,
        name: body.name,
        webhook_enc: stored.webhook_enc,
        webhook_masked: stored.webhook_masked,
        secret_enc: body.secret ? ctx.secrets.encrypt(body.secret) : null,
        secret_masked: body.secret ? maskSecret(body.secret) : null,
        keyword: body.keyword || null,
        config: stored.config ?? null,
        config_enc: stored.config_enc ?? null,
        ...(quietColumns(body) ?? {}),
        digest_after_seconds: body.digestAfterSeconds ?? null,
        is_default: makeDefault,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const paceKey = adapterOf(kind).paceKey({ id, address: stored.address });
    await trx.updateTable('ums_channels').set({ pace_key: paceKey }).where('id', '=', id).execute();
    // Past the day's cap of new addresses, the channel is not made at all.
    const mail =
      kind === 'email' && !(await agreed(trx, userId, paceKey, id, now))
        ? await reserveConfirmation(trx, ctx, userId, id, stored.address, now)
        : null;
    return { id, mail };
  });
  if (mail) await mailConfirmation(db, ctx, mail);
  return getChannel(db, ctx, userId, id);
}

export async function updateChannel(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  id: number,
  body: ChannelPatchBody,
  now = new Date(),
): Promise<Channel> {
  const mail = await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('ums_channels')
      .select(['kind', 'config', 'config_enc', 'webhook_enc'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw notFound('渠道不存在');
    const kind = current.kind as ChannelKind;
    checkFields(kind, body, 'update');
    const previous = {
      config: current.config as WebhookConfig | null,
      headers: current.config_enc ? (JSON.parse(ctx.secrets.decrypt(current.config_enc)) as WebhookHeader[]) : [],
    };
    const { address, ...stored } = sealed(kind, ctx, body, previous);
    const set: Record<string, unknown> = {
      updated_at: sql`now()`,
      ...stored,
      ...(address !== undefined ? { pace_key: adapterOf(kind).paceKey({ id, address }) } : {}),
      ...(quietColumns(body) ?? {}),
      ...(body.digestAfterSeconds !== undefined ? { digest_after_seconds: body.digestAfterSeconds } : {}),
    };
    if (body.name !== undefined) set.name = body.name;
    if (body.secret !== undefined) {
      set.secret_enc = body.secret ? ctx.secrets.encrypt(body.secret) : null;
      set.secret_masked = body.secret ? maskSecret(body.secret) : null;
    }
    if (body.keyword !== undefined) set.keyword = body.keyword || null;
    if (body.isDefault) {
      await trx.updateTable('ums_channels').set({ is_default: false }).where('user_id', '=', userId).execute();
      set.is_default = true;
    }
    // A new address has agreed to nothing (unless to another of the user's channels): unconfirmed
    // again, and mailed.
    const readdressed =
      kind === 'email' && address !== undefined && address !== ctx.secrets.decrypt(current.webhook_enc);
    if (readdressed) set.confirmed_at = null;
    await trx.updateTable('ums_channels').set(set).where('id', '=', id).execute();
    if (!readdressed || (await agreed(trx, userId, set.pace_key as string, id, now))) return null;
    return reserveConfirmation(trx, ctx, userId, id, address, now);
  });
  if (mail) await mailConfirmation(db, ctx, mail);
  return getChannel(db, ctx, userId, id);
}

export async function deleteChannel(db: Kysely<DB>, userId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ch = await trx
      .selectFrom('ums_channels')
      .select(['id', 'is_default'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!ch) throw notFound('渠道不存在');
    const pending = await trx
      .selectFrom('ums_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', id)
      .where('status', 'in', ['queued', 'sending', 'retrying'])
      .executeTakeFirstOrThrow();
    if (Number(pending.n) > 0) throw conflict(`该渠道还有 ${pending.n} 条待发送的消息，请先取消它们`);
    await trx.deleteFrom('ums_channels').where('id', '=', id).execute();
    if (ch.is_default) {
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

/** A channel with its secrets opened, for delivery; server-side only. */
export async function loadTarget(
  db: Kysely<DB>,
  ctx: UmsContext,
  channelId: number,
): Promise<(ChannelTarget & { name: string; throttledUntil: Date | null; unconfirmed: boolean }) | null> {
  const row = await db
    .selectFrom('ums_channels')
    .select([
      'id',
      'kind',
      'name',
      'webhook_enc',
      'secret_enc',
      'keyword',
      'throttled_until',
      'config',
      'config_enc',
      'confirmed_at',
    ])
    .where('id', '=', channelId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    kind: row.kind as ChannelKind,
    name: row.name,
    address: ctx.secrets.decrypt(row.webhook_enc),
    secret: row.secret_enc ? ctx.secrets.decrypt(row.secret_enc) : null,
    keyword: row.keyword,
    webhook: row.kind === 'webhook' ? (row.config as WebhookConfig | null) : null,
    headers: row.config_enc ? JSON.parse(ctx.secrets.decrypt(row.config_enc)) : [],
    throttledUntil: row.throttled_until,
    // An e-mail address whose owner has not agreed (consent.ts) is never sent to.
    unconfirmed: awaitsConsent(row),
  };
}

/**
 * Fills in (or corrects, after the way a kind paces has changed) each channel's pace key, which only
 * the decrypted address gives; run at start. A channel saved meanwhile is left as it was saved.
 */
export async function syncPaceKeys(db: Kysely<DB>, secrets: SecretBox): Promise<number> {
  let changed = 0;
  for (let after = 0; ;) {
    const rows = await db
      .selectFrom('ums_channels')
      .select(['id', 'kind', 'webhook_enc', 'pace_key'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) return changed;
    after = rows[rows.length - 1].id;
    for (const r of rows) {
      const key = adapterOf(r.kind).paceKey({ id: r.id, address: secrets.decrypt(r.webhook_enc) });
      if (key === r.pace_key) continue;
      const res = await db
        .updateTable('ums_channels')
        .set({ pace_key: key })
        .where('id', '=', r.id)
        .where('webhook_enc', '=', r.webhook_enc)
        .executeTakeFirst();
      changed += Number(res.numUpdatedRows);
    }
  }
}

/** "Send test message": one synchronous attempt, answered with the service's own code and message. */
export async function testChannel(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  id: number,
  now = new Date(),
): Promise<ChannelTestResult> {
  const ch = await getChannel(db, ctx, userId, id);
  const target = (await loadTarget(db, ctx, id))!;
  if (target.unconfirmed) {
    throw conflict('该邮箱尚未确认，不能发送测试消息：收件人打开确认邮件中的链接后才能发送');
  }
  const r = await adapterOf(ch.kind).send(
    target,
    {
      id: 0,
      type: 'markdown',
      title: '统一门户测试消息',
      content: `#### 统一门户测试消息\n\n渠道「${ch.name}」配置正确。`,
      extra: null,
      createdAt: now,
    },
    ctx,
  );
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

/**
 * Records a channel's latest answer (its last success or error). `run`: a delivery attempt's answer,
 * which also ends ('reset') or lengthens ('bump') the channel's run of failures (failing.ts); a test
 * send leaves the run. Returns the run after this answer.
 */
export async function recordChannelHealth(
  db: Kysely<DB>,
  channelId: number,
  success: boolean,
  error: string | null,
  run?: 'reset' | 'bump',
): Promise<number> {
  const row = await db
    .updateTable('ums_channels')
    .set({
      ...(success
        ? { last_success_at: sql`now()` }
        : { last_error_at: sql`now()`, last_error: error?.slice(0, 500) ?? null }),
      ...(run === 'reset'
        ? { failures_in_row: 0 }
        : run === 'bump'
          ? { failures_in_row: sql`failures_in_row + 1` }
          : {}),
    })
    .where('id', '=', channelId)
    .returning('failures_in_row')
    .executeTakeFirst();
  return row?.failures_in_row ?? 0;
}
