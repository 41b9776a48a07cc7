/**
 * The outbox: every message is written first (status queued) and delivered by the worker.
 * Creation validates size, schedule and channel; nothing invalid is ever stored.
 */
import { sql, type Kysely } from 'kysely';
import {
  UMS_MAX_MESSAGE_BYTES,
  UMS_MAX_SCHEDULE_DAYS,
  type MessageDetail,
  type MessageStatus,
  type MessageSummary,
  type MessageType,
  type UmsStats,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { escapeLike } from '../../lib/sql';

export interface NewMessage {
  title: string;
  content: string;
  type: 'text' | 'markdown';
  channel?: number;
  sendAt?: string | number;
  atMobiles?: string[];
  isAtAll?: boolean;
}

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

export async function createMessage(
  db: Kysely<DB>,
  userId: number,
  input: NewMessage,
  source: 'ui' | 'api',
  now = new Date(),
): Promise<{ id: number; status: MessageStatus }> {
  const bytes = messageBytes(input.title, input.content);
  if (bytes > UMS_MAX_MESSAGE_BYTES) {
    throw badRequest(`消息过大：${bytes} 字节，最多 ${UMS_MAX_MESSAGE_BYTES} 字节（UTF-8）`, {
      content: [`消息最多 ${UMS_MAX_MESSAGE_BYTES} 字节`],
    });
  }
  const sendAt = parseSendAt(input.sendAt, now);
  const channel = await db
    .selectFrom('ums_channels')
    .select('id')
    .where('user_id', '=', userId)
    .$if(input.channel !== undefined, (q) => q.where('id', '=', input.channel!))
    .$if(input.channel === undefined, (q) => q.where('is_default', '=', true))
    .executeTakeFirst();
  if (!channel) {
    throw input.channel !== undefined
      ? badRequest('渠道不存在', { channel: ['渠道不存在'] })
      : badRequest('还没有绑定钉钉机器人，请先在“我的推送”中添加渠道', { channel: ['请先绑定渠道'] });
  }
  const extra =
    input.atMobiles?.length || input.isAtAll
      ? { atMobiles: input.atMobiles ?? [], isAtAll: Boolean(input.isAtAll) }
      : null;
  const row = await db
    .insertInto('ums_messages')
    .values({
      user_id: userId,
      channel_id: channel.id,
      type: input.type,
      title: input.title,
      content: input.content,
      extra: extra ? JSON.stringify(extra) : null,
      status: 'queued',
      send_at: sendAt,
      next_attempt_at: sendAt ?? now,
      source,
    })
    .returning(['id', 'status'])
    .executeTakeFirstOrThrow();
  return { id: row.id, status: row.status as MessageStatus };
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
    source: r.source as 'ui' | 'api',
    createdAt: r.created_at.toISOString(),
    deliveredAt: r.delivered_at?.toISOString() ?? null,
  };
}

export async function listMessages(
  db: Kysely<DB>,
  userId: number,
  q: {
    current: number;
    pageSize: number;
    status?: MessageStatus;
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
      .$if(!!q.channel, (x) => x.where('m.channel_id', '=', q.channel!))
      .$if(!!q.keyword, (x) =>
        x.where((eb) =>
          eb.or([
            eb('m.title', 'ilike', `%${escapeLike(q.keyword!)}%`),
            eb('m.content', 'ilike', `%${escapeLike(q.keyword!)}%`),
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
  const attempts = await db.selectFrom('ums_attempts').selectAll().where('message_id', '=', id).orderBy('id').execute();
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
      outcome: a.outcome as MessageDetail['attemptLog'][number]['outcome'],
    })),
  };
}

/** Failed messages go back to the queue for a fresh round of attempts. */
export async function resendMessage(db: Kysely<DB>, userId: number, id: number, now = new Date()) {
  const row = await db
    .updateTable('ums_messages')
    .set({ status: 'queued', attempts: 0, next_attempt_at: now, last_error: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', '=', 'failed')
    .returning(['id', 'status'])
    .executeTakeFirst();
  if (!row) {
    await getMessage(db, userId, id); // 404 when it is not ours
    throw conflict('只有发送失败的消息可以重新发送');
  }
  return { id: row.id, status: row.status as MessageStatus };
}

/** Queued, scheduled or retrying messages can be cancelled; one being sent right now cannot. */
export async function cancelMessage(db: Kysely<DB>, userId: number, id: number) {
  const row = await db
    .updateTable('ums_messages')
    .set({ status: 'cancelled', next_attempt_at: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'retrying'])
    .returning(['id', 'status'])
    .executeTakeFirst();
  if (!row) {
    await getMessage(db, userId, id);
    throw conflict('只有排队中、定时或等待重试的消息可以取消');
  }
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
    .select(['id', 'name', 'last_success_at', 'last_error_at', 'last_error', 'throttled_until'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return {
    byStatus,
    total,
    daily: daily.rows.map((r) => ({ day: r.day, delivered: Number(r.delivered), failed: Number(r.failed) })),
    channels: channels.map((c) => ({
      id: c.id,
      name: c.name,
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
