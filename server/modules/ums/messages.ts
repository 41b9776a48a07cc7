/**
 * The outbox: every message is written first (status queued) and delivered by the worker.
 * Creation validates size, schedule and channel; nothing invalid is ever stored.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  UMS_MAX_MESSAGE_BYTES,
  UMS_MAX_SCHEDULE_DAYS,
  type ChannelKind,
  type Priority,
  type MessageDetail,
  type MessageStatus,
  type MessageSummary,
  type MessageType,
  type UmsStats,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { lockFor } from '../../db/locks';
import { badRequest, conflict, notFound, tooMany } from '../../errors';
import { containsOperator, escapeLike } from '../../lib/sql';
import { callbackDue, validateCallbackUrl } from './callbacks';
import { channelHealth } from './channels';
import { awaitsConsent } from './consent';
import { settleMerged } from './digest';
import { renderTemplate } from './templates';

export interface NewMessage {
  title: string;
  /** Required unless `template` is given. */
  content?: string;
  type: 'text' | 'markdown';
  /** A template of the sender's (name or id), filled with `vars` (templates.ts). */
  template?: string;
  vars?: Record<string, string>;
  /** One channel; the default one when no routing is given. */
  channel?: number;
  /** Fan-out: one message per channel, sent side by side. */
  channels?: number[];
  /** A chain: the first channel, then the next whenever one fails for good. */
  fallback?: number[];
  priority?: Priority;
  /** The same key again (per user) returns the first message instead of queueing another. */
  idempotencyKey?: string;
  /** POSTed the final outcome, signed (callbacks.ts). */
  callbackUrl?: string;
  sendAt?: string | number;
  atMobiles?: string[];
  isAtAll?: boolean;
}

export const PRIORITY_VALUE: Record<Priority, number> = { low: 0, normal: 1, high: 2, urgent: 3 };
const PRIORITY_NAME = Object.fromEntries(Object.entries(PRIORITY_VALUE).map(([k, v]) => [v, k])) as Record<
  number,
  Priority
>;

function parseSendAt(raw: string | number | undefined, now: Date): Date | null {
  if (raw === undefined || raw === '') return null;
  const at = typeof raw === 'number' || /^\d+$/.test(raw) ? new Date(Number(raw)) : new Date(raw);
  if (Number.isNaN(at.getTime())) throw badRequest('定时发送时间格式不正确', { sendAt: ['时间格式不正确'] });
  if (at.getTime() < now.getTime() - 60_000) throw badRequest('定时发送时间不能早于现在', { sendAt: ['不能早于现在'] });
  if (at.getTime() > now.getTime() + UMS_MAX_SCHEDULE_DAYS * 86_400_000) {
    throw badRequest(`定时发送最多提前 ${UMS_MAX_SCHEDULE_DAYS} 天`, {
      sendAt: [`最多提前 ${UMS_MAX_SCHEDULE_DAYS} 天`],
    });
  }
  return at.getTime() <= now.getTime() ? null : at;
}

export function messageBytes(title: string, content: string): number {
  return Buffer.byteLength(title, 'utf8') + Buffer.byteLength(content, 'utf8');
}

interface Route {
  /** One message per entry; `fallback` is what that message tries after its channel. */
  deliveries: { channel: number; fallback: number[] }[];
}

/** An e-mail address that has not agreed (consent.ts) is not sent to: 409, naming the channel. */
function refuseUnconfirmed(channels: { name: string; kind: string; confirmed_at: Date | null }[], field: string) {
  const pending = channels.find(awaitsConsent);
  if (!pending) return;
  const message = `渠道「${pending.name}」的邮箱尚未确认：收件人打开确认邮件中的链接后才能向它发送`;
  throw conflict(message, { [field]: [message] });
}

/** Checks that every channel named is the sender's; the default channel when none is named. */
async function resolveRoute(db: Kysely<DB>, userId: number, input: NewMessage): Promise<Route> {
  const named = input.channels ?? input.fallback ?? (input.channel !== undefined ? [input.channel] : null);
  const field = input.channels ? 'channels' : input.fallback ? 'fallback' : 'channel';
  if (!named) {
    const def = await db
      .selectFrom('ums_channels')
      .select(['id', 'name', 'kind', 'confirmed_at'])
      .where('user_id', '=', userId)
      .where('is_default', '=', true)
      .executeTakeFirst();
    if (!def) {
      throw badRequest('还没有推送渠道，请先在“我的推送”中添加渠道', { channel: ['请先添加渠道'] });
    }
    refuseUnconfirmed([def], 'channel');
    return { deliveries: [{ channel: def.id, fallback: [] }] };
  }
  const owned = await db
    .selectFrom('ums_channels')
    .select(['id', 'name', 'kind', 'confirmed_at'])
    .where('user_id', '=', userId)
    .where('id', 'in', named)
    .execute();
  if (owned.length !== named.length) throw badRequest('渠道不存在', { [field]: ['渠道不存在'] });
  refuseUnconfirmed(owned, field);
  if (input.channels) return { deliveries: named.map((channel) => ({ channel, fallback: [] })) };
  return { deliveries: [{ channel: named[0], fallback: named.slice(1) }] };
}

export interface Created {
  id: number;
  status: MessageStatus;
  duplicate?: boolean;
  deliveries?: { id: number; channelId: number }[];
}

/** The first message of a key (and its fan-out siblings), as created. */
async function existing(db: Kysely<DB>, userId: number, key: string): Promise<Created | null> {
  const first = await db
    .selectFrom('ums_messages')
    .select(['id', 'status', 'group_id'])
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (!first) return null;
  const created: Created = { id: first.id, status: first.status as MessageStatus, duplicate: true };
  if (first.group_id !== null) {
    const rows = await db
      .selectFrom('ums_messages')
      .select(['id', 'channel_id'])
      .where('group_id', '=', first.group_id)
      .orderBy('id')
      .execute();
    created.deliveries = rows.map((r) => ({ id: r.id, channelId: r.channel_id ?? 0 }));
  }
  return created;
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/** A user's allowance of new messages (send-limit.ts): what keeps one session from flooding the outbox. */
export interface SendQuota {
  /** Takes `deliveries` from the user's allowance (429 past it); the function gives them back. */
  take(userId: number, deliveries: number): Promise<() => Promise<void>>;
  /** At most this many scheduled messages waiting per user; 0: no limit. */
  maxScheduled: number;
}

export interface CreateOptions {
  now?: Date;
  /** UMS_WEBHOOK_ALLOWLIST, for the callback URL. */
  allowlist?: string[];
  /** The portal's own host names, which a callback URL may not name. */
  ownHosts?: string[];
  quota?: SendQuota;
}

/**
 * Refuses (429) a scheduled send that would leave the user more than `max` scheduled messages waiting;
 * Retry-After is when the first of them falls due. Holds a per-user lock to the end of the transaction,
 * so concurrent sends (on any instance) count one after another.
 */
async function checkScheduled(trx: Transaction<DB>, userId: number, adding: number, max: number, now: Date) {
  await lockFor(trx, 'ums-scheduled', userId);
  const row = await trx
    .selectFrom('ums_messages')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('send_at').as('first')])
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'retrying'])
    .where('send_at', '>', now)
    .executeTakeFirstOrThrow();
  if (Number(row.n) + adding <= max) return;
  const first = row.first ? new Date(row.first).getTime() : now.getTime() + 60_000;
  throw tooMany(
    `定时消息过多：每人最多同时保留 ${max} 条待发送的定时消息（现有 ${row.n} 条），请等其中一些发出或取消后再试`,
    (first - now.getTime()) / 1000,
  );
}

export async function createMessage(
  db: Kysely<DB>,
  userId: number,
  input: NewMessage,
  source: 'ui' | 'api',
  { now = new Date(), allowlist = [], ownHosts = [], quota }: CreateOptions = {},
): Promise<Created> {
  if (input.template) {
    const filled = await renderTemplate(db, userId, input.template, input.vars ?? {});
    input = { ...input, ...filled, title: input.title || filled.title };
  }
  if (!input.content) throw badRequest('缺少 content', { content: ['缺少 content'] });
  const content = input.content;
  const bytes = messageBytes(input.title, content);
  const callbackUrl = input.callbackUrl ? validateCallbackUrl(input.callbackUrl, allowlist, ownHosts) : null;
  if (bytes > UMS_MAX_MESSAGE_BYTES) {
    throw badRequest(`消息过大：${bytes} 字节，最多 ${UMS_MAX_MESSAGE_BYTES} 字节（UTF-8）`, {
      content: [`消息最多 ${UMS_MAX_MESSAGE_BYTES} 字节`],
    });
  }
  const sendAt = parseSendAt(input.sendAt, now);
  if (input.idempotencyKey) {
    const seen = await existing(db, userId, input.idempotencyKey);
    if (seen) return seen;
  }
  const route = await resolveRoute(db, userId, input);
  const extra =
    input.atMobiles?.length || input.isAtAll
      ? { atMobiles: input.atMobiles ?? [], isAtAll: Boolean(input.isAtAll) }
      : null;
  const row = (channel: number, fallback: number[]) => ({
    user_id: userId,
    channel_id: channel,
    type: input.type,
    title: input.title,
    content,
    extra: extra ? JSON.stringify(extra) : null,
    status: 'queued',
    send_at: sendAt,
    next_attempt_at: sendAt ?? now,
    source,
    priority: PRIORITY_VALUE[input.priority ?? 'normal'],
    fallback,
    callback_url: callbackUrl,
  });
  const giveBack = (await quota?.take(userId, route.deliveries.length)) ?? (async () => undefined);
  try {
    return await db.transaction().execute(async (trx) => {
      if (sendAt && quota?.maxScheduled)
        await checkScheduled(trx, userId, route.deliveries.length, quota.maxScheduled, now);
      const [head, ...rest] = route.deliveries;
      const first = await trx
        .insertInto('ums_messages')
        .values({ ...row(head.channel, head.fallback), idempotency_key: input.idempotencyKey ?? null })
        .returning(['id', 'status'])
        .executeTakeFirstOrThrow();
      const created: Created = { id: first.id, status: first.status as MessageStatus };
      if (rest.length === 0) return created;
      // A fan-out: every message of the send points at the first, which holds the key.
      await trx.updateTable('ums_messages').set({ group_id: first.id }).where('id', '=', first.id).execute();
      const others = await trx
        .insertInto('ums_messages')
        .values(rest.map((d) => ({ ...row(d.channel, d.fallback), group_id: first.id })))
        .returning(['id', 'channel_id'])
        .execute();
      created.deliveries = [
        { id: first.id, channelId: head.channel },
        ...others.map((o) => ({ id: o.id, channelId: o.channel_id! })),
      ];
      return created;
    });
  } catch (err) {
    // Nothing was queued: what this send took from the allowance is the user's again.
    await giveBack();
    // The same key sent twice at once: the other request's message is the one.
    if (input.idempotencyKey && isUniqueViolation(err)) {
      const seen = await existing(db, userId, input.idempotencyKey);
      if (seen) return seen;
    }
    throw err;
  }
}

function summaryQuery(db: Kysely<DB>) {
  return db
    .selectFrom('ums_messages as m')
    .leftJoin('ums_channels as c', 'c.id', 'm.channel_id')
    .select([
      'm.id',
      'm.title',
      'm.content',
      'm.type',
      'm.channel_id',
      'c.name as channel_name',
      'm.status',
      'm.attempts',
      'm.send_at',
      'm.next_attempt_at',
      'm.last_error',
      'm.source',
      'm.created_at',
      'm.delivered_at',
      'm.priority',
      'm.group_id',
      'm.fallback',
      'm.callback_url',
      'm.callback_status',
      'm.callback_attempts',
      'm.callback_error',
      'm.callback_sent_at',
      'm.callback_next_at',
      'm.read_at',
      'm.digest_id',
    ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

function toSummary(r: SummaryRow): MessageSummary {
  const waiting = r.status === 'queued' || r.status === 'retrying';
  return {
    id: r.id,
    title: r.title,
    content: r.content,
    type: r.type as MessageType,
    channelId: r.channel_id,
    channelName: r.channel_name,
    status: r.status as MessageStatus,
    attempts: r.attempts,
    sendAt: r.send_at?.toISOString() ?? null,
    nextAttemptAt: waiting ? (r.next_attempt_at?.toISOString() ?? null) : null,
    lastError: r.last_error,
    source: r.source as MessageSummary['source'],
    createdAt: r.created_at.toISOString(),
    deliveredAt: r.delivered_at?.toISOString() ?? null,
    priority: PRIORITY_NAME[r.priority] ?? 'normal',
    groupId: r.group_id,
    fallbackChannelIds: r.fallback ?? [],
    readAt: r.read_at?.toISOString() ?? null,
    digestId: r.digest_id,
    callbackUrl: r.callback_url,
    callback: r.callback_status
      ? {
          status: r.callback_status,
          attempts: r.callback_attempts,
          error: r.callback_error,
          sentAt: r.callback_sent_at?.toISOString() ?? null,
          nextAt: r.callback_status === 'pending' ? (r.callback_next_at?.toISOString() ?? null) : null,
        }
      : null,
  };
}

export async function listMessages(
  db: Kysely<DB>,
  userId: number,
  q: {
    current: number;
    pageSize: number;
    status?: MessageStatus;
    read?: 'read' | 'unread';
    channel?: number;
    keyword?: string;
    from?: string;
    to?: string;
  },
): Promise<{ rows: MessageSummary[]; total: number }> {
  const dates = [q.from, q.to].map((d) => {
    if (!d) return undefined;
    const t = new Date(d);
    if (Number.isNaN(t.getTime()))
      throw badRequest('日期格式不正确', { [d === q.from ? 'from' : 'to']: ['日期格式不正确'] });
    return t;
  });
  const filter = <T extends ReturnType<typeof summaryQuery>>(b: T): T =>
    b
      .where('m.user_id', '=', userId)
      .$if(!!q.status, (x) => x.where('m.status', '=', q.status!))
      .$if(q.read === 'read', (x) => x.where('m.read_at', 'is not', null))
      .$if(q.read === 'unread', (x) => x.where('m.read_at', 'is', null))
      .$if(!!q.channel, (x) => x.where('m.channel_id', '=', q.channel!))
      .$if(!!q.keyword, (x) =>
        x.where((eb) =>
          eb.or([
            eb('m.title', containsOperator(q.keyword!), `%${escapeLike(q.keyword!)}%`),
            eb('m.content', containsOperator(q.keyword!), `%${escapeLike(q.keyword!)}%`),
          ]),
        ),
      )
      .$if(!!dates[0], (x) => x.where('m.created_at', '>=', dates[0]!))
      .$if(!!dates[1], (x) => x.where('m.created_at', '<=', dates[1]!)) as T;
  const [countRow, rows] = await Promise.all([
    filter(summaryQuery(db))
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    filter(summaryQuery(db))
      .orderBy('m.id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  return { rows: rows.map(toSummary), total: Number(countRow.n) };
}

export async function getMessage(db: Kysely<DB>, userId: number, id: number): Promise<MessageDetail> {
  const row = await summaryQuery(db).where('m.id', '=', id).where('m.user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound('消息不存在');
  const attempts = await db
    .selectFrom('ums_attempts as a')
    .leftJoin('ums_channels as c', 'c.id', 'a.channel_id')
    .selectAll('a')
    .select('c.kind as channel_kind')
    // A message merged into a digest shows the digest's attempts: they carried it.
    .where('a.message_id', 'in', row.digest_id !== null ? [id, row.digest_id] : [id])
    .orderBy('a.id')
    .execute();
  return {
    ...toSummary(row),
    attemptLog: attempts.map((a) => ({
      id: a.id,
      at: a.at.toISOString(),
      httpStatus: a.http_status,
      errcode: a.errcode,
      errmsg: a.errmsg,
      detail: a.detail,
      durationMs: a.duration_ms,
      channelId: a.channel_id,
      channelKind: (a.channel_kind as ChannelKind | null) ?? null,
      outcome: a.outcome as MessageDetail['attemptLog'][number]['outcome'],
    })),
  };
}

async function unreadCount(db: Kysely<DB>, userId: number): Promise<number> {
  const { n } = await db
    .selectFrom('ums_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The inbox: one message read (404 when it is not the user's), or all of them. */
export async function markRead(db: Kysely<DB>, userId: number, id: number | 'all', now = new Date()) {
  const res = await db
    .updateTable('ums_messages')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .$if(id !== 'all', (q) => q.where('id', '=', id as number))
    .executeTakeFirst();
  if (id !== 'all' && Number(res.numUpdatedRows) === 0) await getMessage(db, userId, id);
  return { updated: Number(res.numUpdatedRows), unread: await unreadCount(db, userId) };
}

/** Failed messages go back to the queue for a fresh round of attempts (one message of the allowance). */
export async function resendMessage(db: Kysely<DB>, userId: number, id: number, now = new Date(), quota?: SendQuota) {
  const giveBack = (await quota?.take(userId, 1)) ?? (async () => undefined);
  const row = await db
    .updateTable('ums_messages')
    .set({
      status: 'queued',
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      updated_at: sql`now()`,
      // A new outcome will come: its callback is sent again.
      callback_status: null,
      callback_attempts: 0,
      callback_error: null,
      callback_next_at: null,
      // Resent on its own, out of the digest that failed it.
      digest_id: null,
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'failed')
    .returning(['id', 'status', 'source'])
    .executeTakeFirst();
  if (!row) {
    await giveBack();
    await getMessage(db, userId, id); // 404 when it is not ours
    throw conflict('只有发送失败的消息可以重新发送');
  }
  if (row.source === 'digest') {
    // A digest resent carries again the messages it failed (not those resent on their own since).
    await db
      .updateTable('ums_messages')
      .set({ status: 'merged', last_error: null, callback_status: null, callback_attempts: 0, callback_error: null })
      .where('digest_id', '=', id)
      .where('status', '=', 'failed')
      .execute();
  }
  return { id: row.id, status: row.status as MessageStatus };
}

/** Queued, scheduled or retrying messages can be cancelled; one being sent right now cannot. */
export async function cancelMessage(db: Kysely<DB>, userId: number, id: number, now = new Date()) {
  const row = await db
    .updateTable('ums_messages')
    .set({ status: 'cancelled', next_attempt_at: null, updated_at: sql`now()`, ...callbackDue(now) })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'retrying'])
    .returning(['id', 'status', 'source'])
    .executeTakeFirst();
  if (!row) {
    await getMessage(db, userId, id);
    throw conflict('只有排队中、定时或等待重试的消息可以取消');
  }
  // Cancelling a digest cancels what was merged into it.
  if (row.source === 'digest') await settleMerged(db, row.id, { status: 'cancelled', reason: '摘要已取消' }, now);
  return { id: row.id, status: row.status as MessageStatus };
}

export async function stats(db: Kysely<DB>, userId: number, tz: string): Promise<UmsStats> {
  const byStatusRows = await db
    .selectFrom('ums_messages')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', userId)
    .groupBy('status')
    .execute();
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const r of byStatusRows) {
    byStatus[r.status] = Number(r.n);
    total += Number(r.n);
  }
  const daily = await sql<{ day: string; delivered: number; failed: number }>`
    select to_char(d.day, 'YYYY-MM-DD') as day,
           count(m.id) filter (where m.status = 'delivered')::int as delivered,
           count(m.id) filter (where m.status = 'failed')::int as failed
    from generate_series((now() at time zone ${tz})::date - 13, (now() at time zone ${tz})::date, interval '1 day') as d(day)
    left join ums_messages m
      on m.user_id = ${userId}
     and (m.created_at at time zone ${tz})::date = d.day::date
    group by d.day
    order by d.day`.execute(db);
  const channels = await db
    .selectFrom('ums_channels')
    .select(['id', 'kind', 'name', 'last_success_at', 'last_error_at', 'last_error', 'throttled_until'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const health = await channelHealth(
    db,
    channels.map((c) => c.id),
  );
  return {
    byStatus,
    unread: await unreadCount(db, userId),
    total,
    daily: daily.rows.map((r) => ({ day: r.day, delivered: Number(r.delivered), failed: Number(r.failed) })),
    channels: channels.map((c) => ({
      id: c.id,
      kind: c.kind as ChannelKind,
      name: c.name,
      health: health.get(c.id) ?? { attempts: 0, delivered: 0, successRate: null },
      lastSuccessAt: c.last_success_at?.toISOString() ?? null,
      lastErrorAt: c.last_error_at?.toISOString() ?? null,
      lastError: c.last_error,
      throttledUntil: c.throttled_until?.toISOString() ?? null,
    })),
  };
}

/** Retention: deletes messages (and their attempts) older than `days`. */
export async function pruneMessages(db: Kysely<DB>, days: number): Promise<number> {
  const res = await db
    .deleteFrom('ums_messages')
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .where('status', 'in', ['delivered', 'failed', 'cancelled'])
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
