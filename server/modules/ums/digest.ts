/**
 * The overflow digest: on a channel with `digest_after_seconds`, messages that would wait longer than
 * that (its pacing window is full, it is paused after a rate-limit answer, quiet hours) are merged into
 * one markdown digest that takes the earliest of their turns, instead of arriving one by one, late.
 * Merged messages wait in status `merged` and take the digest's outcome (settleMerged); their content
 * stays readable in the inbox. A digest still waiting takes in what is held back after it. Only
 * messages never attempted, not scheduled for later and without a fallback chain are merged.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { UMS_MAX_MESSAGE_BYTES } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { callbackDue } from './callbacks';

/** At most this many messages in one digest; the rest wait for the next. */
const MAX_MERGED = 100;

interface Item {
  id: number;
  title: string;
  content: string;
  created_at: Date;
}

/** A digest's title and markdown: every message in order, as many as fit the size limit. */
export function digestText(items: Item[], timeZone: string): { title: string; content: string } {
  const time = new Intl.DateTimeFormat('zh-CN', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const head = `**${items.length} 条消息因发送频率限制合并为一条摘要。**`;
  const budget = UMS_MAX_MESSAGE_BYTES - 600;
  let content = head;
  let shown = 0;
  for (const [i, m] of items.entries()) {
    const part = `\n\n---\n\n#### ${i + 1}. ${m.title || '（无标题）'}（${time.format(m.created_at)}）\n\n${m.content}`;
    if (Buffer.byteLength(content + part, 'utf8') > budget) break;
    content += part;
    shown += 1;
  }
  if (shown < items.length) content += `\n\n---\n\n……另有 ${items.length - shown} 条未列出，完整内容见“消息查询”。`;
  return { title: `消息摘要（${items.length} 条）`, content };
}

/** Merges held-back messages of every digest channel; returns how many messages were merged. */
export async function sweepDigests(db: Kysely<DB>, now: Date, timeZone: string): Promise<number> {
  const channels = await sql<{ channel_id: number }>`
    select m.channel_id
      from ums_messages m join ums_channels c on c.id = m.channel_id
     where c.digest_after_seconds is not null
       and m.status in ('queued', 'retrying') and m.attempts = 0 and m.source <> 'digest'
       and cardinality(m.fallback) = 0 and (m.send_at is null or m.send_at <= ${now})
       and m.next_attempt_at > ${now}::timestamptz + make_interval(secs => c.digest_after_seconds)
     group by m.channel_id`.execute(db);
  let merged = 0;
  for (const { channel_id } of channels.rows) merged += await mergeChannel(db, channel_id, now, timeZone);
  return merged;
}

async function mergeChannel(db: Kysely<DB>, channelId: number, now: Date, timeZone: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ch = await trx
      .selectFrom('ums_channels')
      .select(['user_id', 'digest_after_seconds'])
      .where('id', '=', channelId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!ch?.digest_after_seconds) return 0;
    const heldUntil = new Date(now.getTime() + ch.digest_after_seconds * 1000);
    const held = await trx
      .selectFrom('ums_messages')
      .select(['id', 'priority', 'next_attempt_at'])
      .where('channel_id', '=', channelId)
      .where('status', 'in', ['queued', 'retrying'])
      .where('attempts', '=', 0)
      .where('source', '<>', 'digest')
      .where(sql<boolean>`cardinality(fallback) = 0`)
      .where((eb) => eb.or([eb('send_at', 'is', null), eb('send_at', '<=', now)]))
      .where('next_attempt_at', '>', heldUntil)
      .orderBy('id')
      .limit(MAX_MERGED)
      .forUpdate()
      .skipLocked()
      .execute();
    const open = await trx
      .selectFrom('ums_messages')
      .select(['id', 'priority', 'next_attempt_at'])
      .where('channel_id', '=', channelId)
      .where('source', '=', 'digest')
      .where('status', 'in', ['queued', 'retrying'])
      .where('attempts', '=', 0)
      .orderBy('id', 'desc')
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    // One held message alone is not worth a digest, unless a digest is waiting to take it in.
    if (held.length === 0 || (held.length < 2 && !open)) return 0;
    const earliest = new Date(Math.min(...held.map((h) => h.next_attempt_at!.getTime())));
    const priority = Math.max(...held.map((h) => h.priority));
    let digestId: number;
    if (open) {
      digestId = open.id;
      await trx
        .updateTable('ums_messages')
        .set({
          priority: Math.max(priority, open.priority),
          next_attempt_at: new Date(Math.min(earliest.getTime(), open.next_attempt_at!.getTime())),
        })
        .where('id', '=', digestId)
        .execute();
    } else {
      const row = await trx
        .insertInto('ums_messages')
        .values({
          user_id: ch.user_id,
          channel_id: channelId,
          type: 'markdown',
          title: '消息摘要',
          content: '…',
          status: 'queued',
          next_attempt_at: earliest,
          source: 'digest',
          priority,
          fallback: [],
          // The merged messages are what the inbox counts; the digest itself arrives read.
          read_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      digestId = row.id;
    }
    await trx
      .updateTable('ums_messages')
      .set({ status: 'merged', digest_id: digestId, next_attempt_at: null, locked_until: null, last_error: null })
      .where(
        'id',
        'in',
        held.map((h) => h.id),
      )
      .execute();
    await recompose(trx, digestId, timeZone);
    return held.length;
  });
}

/** The digest's text from everything merged into it, in the order they were written. */
async function recompose(trx: Transaction<DB>, digestId: number, timeZone: string): Promise<void> {
  const items = await trx
    .selectFrom('ums_messages')
    .select(['id', 'title', 'content', 'created_at'])
    .where('digest_id', '=', digestId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const { title, content } = digestText(items, timeZone);
  await trx.updateTable('ums_messages').set({ title, content }).where('id', '=', digestId).execute();
}

/** A digest reached its outcome: the messages merged into it take it (and their callbacks become due). */
export async function settleMerged(
  db: Kysely<DB> | Transaction<DB>,
  digestId: number,
  outcome: { status: 'delivered' | 'failed' | 'cancelled'; reason: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('ums_messages')
    .set({
      status: outcome.status,
      delivered_at: outcome.status === 'delivered' ? now : null,
      last_error: outcome.reason ? `摘要 #${digestId}：${outcome.reason}` : null,
      ...callbackDue(now),
    })
    .where('digest_id', '=', digestId)
    .where('status', '=', 'merged')
    .execute();
}
