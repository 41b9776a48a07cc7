/**
 * The administrators' notice of a channel whose deliveries keep failing. Each delivery attempt's answer
 * moves the channel's run of failures (failures_in_row) in the statement that records the channel's
 * health (channels.ts recordChannelHealth): a delivered answer ends the run, a failed one lengthens it,
 * and a rate-limit answer, which says the channel works and only asks to wait, leaves it. A run is
 * counted on the channel row, so the attempt that makes it reach UMS_CHANNEL_FAILING_NOTIFY_AT is
 * exactly one, on whichever instance: that attempt tells every active administrator (once until they
 * read it, whichever channel it was about). A channel is announced again only after a delivered
 * attempt ended its run and a new run reached the mark; a run in a row rather than failures in a time
 * window, so a busy channel that fails now and then is never announced, and an idle broken one is.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { CHANNEL_KIND_LABELS, type ChannelKind } from '../../../src/contract';
import type { DB } from '../../db/schema';
import type { SendResult } from './kinds/transport';

/** What the worker tells the administrators with (the notification centre's notifyAdmins()). */
export type TellAdmins = (
  db: Kysely<DB> | Transaction<DB>,
  n: { kind: 'ums.channel.failing'; title: string; body: string; link: string },
) => Promise<void>;

/**
 * Our own reading of the last answer: the hint we wrote, the service's error code or the HTTP status.
 * Never the service's message or Node's: those can carry the address (a host name, an e-mail address).
 */
function lastAnswer(r: SendResult): string {
  if (r.hint) return r.hint.slice(0, 200);
  if (r.errcode !== null) return `错误码 ${r.errcode}`;
  if (r.httpStatus !== null) return `HTTP ${r.httpStatus}`;
  return '没有收到应答';
}

/** Tells the administrators that `channelId` failed `run` attempts in a row (its name, kind and owner). */
export async function tellChannelFailing(
  notifyAdmins: TellAdmins,
  db: Kysely<DB>,
  log: FastifyBaseLogger,
  channelId: number,
  run: number,
  r: SendResult,
): Promise<void> {
  try {
    const ch = await db
      .selectFrom('ums_channels as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.name', 'c.kind', 'u.username'])
      .where('c.id', '=', channelId)
      .executeTakeFirst();
    if (!ch) return;
    const kind = CHANNEL_KIND_LABELS[ch.kind as ChannelKind] ?? ch.kind;
    await notifyAdmins(db, {
      kind: 'ums.channel.failing',
      title: `推送渠道「${ch.name.slice(0, 60)}」连续 ${run} 次发送失败`,
      body:
        `${kind}渠道（属于用户 ${ch.username}）连续 ${run} 次投递失败，最近一次：${lastAnswer(r)}。` +
        '首页“消息投递（全站）”可看到全站等待重试和发送失败的消息数。',
      link: '/home',
    });
  } catch (err) {
    // The attempt is recorded; a notice that could not be written must not count as a failed delivery.
    log.warn({ err, channelId }, 'ums failing-channel notification failed');
  }
}
