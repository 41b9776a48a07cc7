/**
 * Delivery callbacks: a message may name a URL that is POSTed its final outcome (delivered, failed
 * with the reason, cancelled) once, signed with the sender's callback secret —
 * `X-Portal-Signature: sha256=<hex of HMAC-SHA256(secret, timestamp + "." + body)>` with the
 * `X-Portal-Timestamp` it covers — and retried with the messages' backoff until a 2xx answer or
 * UMS_MAX_ATTEMPTS. The URL obeys the generic webhook's rule: no loopback, private or link-local address
 * unless allow-listed, checked when given and at every connection, and never the portal's own host.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { CallbackPayload, CallbackSecret, ChannelKind } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest } from '../../errors';
import type { SecretBox } from '../../lib/secretbox';
import { describeFetchError } from './kinds/transport';
import { allowListed } from './kinds/http';
import { isOwnHost, isPrivateAddress, OwnAddressError, PrivateAddressError, requestOnce } from './kinds/webhook';

const newSecret = () => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

/** The user's secret, made on first use. */
export async function callbackSecret(db: Kysely<DB>, secrets: SecretBox, userId: number): Promise<CallbackSecret> {
  await db
    .insertInto('ums_callback_secrets')
    .values({ user_id: userId, secret_enc: secrets.encrypt(newSecret()) })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('ums_callback_secrets')
    .select(['secret_enc', 'created_at'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { secret: secrets.decrypt(row.secret_enc), createdAt: row.created_at.toISOString() };
}

export async function rotateCallbackSecret(
  db: Kysely<DB>,
  secrets: SecretBox,
  userId: number,
): Promise<CallbackSecret> {
  const secret = newSecret();
  const row = await db
    .insertInto('ums_callback_secrets')
    .values({ user_id: userId, secret_enc: secrets.encrypt(secret) })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ secret_enc: secrets.encrypt(secret), created_at: sql`now()` }),
    )
    .returning('created_at')
    .executeTakeFirstOrThrow();
  return { secret, createdAt: row.created_at.toISOString() };
}

export function signCallback(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** 400 unless an http(s) URL that does not point inward (or is allow-listed), nor at the portal itself. */
export function validateCallbackUrl(raw: string, allowlist: string[], ownHosts: string[] = []): string {
  let url: URL;
  try {
    url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw badRequest('回调地址应为 http:// 或 https:// 开头的完整地址', { callbackUrl: ['回调地址格式不正确'] });
  }
  if (isOwnHost(url, ownHosts)) {
    throw badRequest('回调地址不能是门户自己的地址', { callbackUrl: ['不能是门户自己的地址'] });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!allowListed(raw, allowlist) && (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host))) {
    throw badRequest('回调地址不能是内网或本机地址（管理员可将其加入 UMS_WEBHOOK_ALLOWLIST）', {
      callbackUrl: ['不能是内网或本机地址'],
    });
  }
  return url.toString();
}

/** The columns that make a callback due, for a message reaching its final state now. */
export function callbackDue(now: Date) {
  return {
    callback_status: sql<'pending' | null>`case when callback_url is not null then 'pending' end`,
    callback_next_at: sql<Date | null>`case when callback_url is not null then ${now}::timestamptz end`,
  };
}

interface DueCallback {
  id: number;
  user_id: number;
  status: string;
  last_error: string | null;
  delivered_at: Date | null;
  attempts: number;
  channel_id: number | null;
  group_id: number | null;
  title: string;
  callback_url: string;
  callback_attempts: number;
}

export interface CallbackOptions {
  db: Kysely<DB>;
  secrets: SecretBox;
  allowlist: string[];
  /** The portal's own host names: never called back. */
  ownHosts: string[];
  timeoutMs: number;
  maxAttempts: number;
  backoffMs: (failedAttempts: number) => number;
  now: () => Date;
}

/** Claims due callbacks (FOR UPDATE SKIP LOCKED, with a lease) and sends them; returns how many. */
export async function sendDueCallbacks(o: CallbackOptions, limit = 50): Promise<number> {
  const now = o.now();
  const lease = new Date(now.getTime() + o.timeoutMs + 5_000);
  const { rows } = await sql<DueCallback>`
    update ums_messages m
       set callback_next_at = ${lease}, callback_attempts = m.callback_attempts + 1
      from (select id from ums_messages
             where callback_status = 'pending' and callback_next_at <= ${now}
             order by callback_next_at, id
             limit ${limit}
             for update skip locked) due
     where m.id = due.id
 returning m.id, m.user_id, m.status, m.last_error, m.delivered_at, m.attempts, m.channel_id, m.group_id, m.title,
           m.callback_url, m.callback_attempts`.execute(o.db);
  for (const c of rows) await sendOne(o, c);
  return rows.length;
}

async function sendOne(o: CallbackOptions, c: DueCallback): Promise<void> {
  const channel = c.channel_id
    ? await o.db
        .selectFrom('ums_channels')
        .select(['id', 'kind', 'name'])
        .where('id', '=', c.channel_id)
        .executeTakeFirst()
    : undefined;
  const timestamp = o.now().getTime();
  const payload: CallbackPayload = {
    event: 'ums.message.final',
    messageId: c.id,
    status: c.status as CallbackPayload['status'],
    reason: c.status === 'delivered' ? null : c.last_error,
    deliveredAt: c.delivered_at?.toISOString() ?? null,
    attempts: c.attempts,
    channel: channel ? { id: channel.id, kind: channel.kind as ChannelKind, name: channel.name } : null,
    groupId: c.group_id,
    title: c.title,
    timestamp,
  };
  const body = JSON.stringify(payload);
  const { secret } = await callbackSecret(o.db, o.secrets, c.user_id);
  let error: string | null = null;
  try {
    const answer = await requestOnce(
      new URL(c.callback_url),
      'POST',
      {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'portal-ums',
        'x-portal-event': 'ums.message.final',
        'x-portal-timestamp': String(timestamp),
        'x-portal-signature': signCallback(secret, timestamp, body),
        'x-portal-delivery': `${c.id}-${c.callback_attempts}`,
      },
      Buffer.from(body, 'utf8'),
      o.timeoutMs,
      !allowListed(c.callback_url, o.allowlist),
      o.ownHosts,
    );
    if (answer.status < 200 || answer.status >= 300) error = `回调地址返回 HTTP ${answer.status}`;
  } catch (err) {
    error =
      err instanceof OwnAddressError
        ? '回调地址是门户自己的地址，已拒绝发送'
        : err instanceof PrivateAddressError
          ? '回调地址解析到内网或本机地址，已拒绝发送'
          : describeFetchError(err, o.timeoutMs, '回调').message;
  }
  const now = o.now();
  const update = o.db.updateTable('ums_messages').where('id', '=', c.id).where('callback_status', '=', 'pending');
  if (error === null) {
    await update
      .set({ callback_status: 'sent', callback_sent_at: now, callback_error: null, callback_next_at: null })
      .execute();
  } else if (c.callback_attempts >= o.maxAttempts) {
    await update
      .set({
        callback_status: 'failed',
        callback_error: `重试 ${c.callback_attempts} 次后仍失败：${error}`,
        callback_next_at: null,
      })
      .execute();
  } else {
    await update
      .set({ callback_error: error, callback_next_at: new Date(now.getTime() + o.backoffMs(c.callback_attempts)) })
      .execute();
  }
}
