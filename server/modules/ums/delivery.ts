/**
 * The UMS delivery worker: one round (`runOnce`) per call; the scheduler (server/scheduler.ts) runs the
 * rounds and wakes them when a message arrives. Claims due messages with FOR UPDATE SKIP LOCKED (so two instances never
 * take the same attempt), enforces each kind's pacing windows (per robot, per e-mail address) and the
 * throttle after a rate-limit answer through the database (so they hold across instances), sends
 * through the channel's adapter (./kinds), records every attempt, and schedules retries with
 * exponential backoff and jitter. Time comes from an injectable clock so tests never sleep.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/schema';
import { lockFor } from '../../db/locks';
import { callbackDue, sendDueCallbacks } from './callbacks';
import { loadTarget, recordChannelHealth, type UmsContext } from './channels';
import { settleMerged, sweepDigests } from './digest';
import { tellChannelFailing, type TellAdmins } from './failing';
import type { Outcome, RobotMessage, SendResult } from './kinds/transport';
import { adapterOf, type ChannelAdapter, type ChannelTarget, type PaceWindow } from './kinds';
import { DINGTALK_THROTTLE_MS } from './kinds/dingtalk';

/** DingTalk's pause after a rate-limit errcode (each kind has its own, see ./kinds). */
export const THROTTLE_MS = DINGTALK_THROTTLE_MS;
/** A service asking for a longer pause than this is not believed. */
const MAX_THROTTLE_MS = 60 * 60_000;

/** What became of one claimed message in a round (metrics): DingTalk's answer, or why none was asked. */
export type DeliveryOutcome = Outcome | 'deferred' | 'channel_deleted' | 'unconfirmed' | 'lost' | 'error';

export interface DeliveryOptions {
  db: Kysely<DB>;
  ums: UmsContext;
  log: FastifyBaseLogger;
  maxAttempts: number;
  retryBaseSeconds: number;
  /** PORTAL_TZ: the zone of channels' quiet hours. */
  timeZone: string;
  clock?: () => Date;
  random?: () => number;
  concurrency?: number;
  /** Failed attempts in a row at which a channel is announced to the administrators (failing.ts); 0: never. */
  failingNotifyAt?: number;
  /** Told the outcome of every claimed message (metrics). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
  /**
   * The notification centre's notify() and notifyAdmins(), handed in by server/app.ts: the centre
   * forwards notifications through this module's outbox (forward.ts), so this module may not import it.
   */
  notify: TellOwner;
  notifyAdmins: TellAdmins;
}

/** What the worker tells a message's owner with (the notification centre's notify()). */
export type TellOwner = (
  db: Kysely<DB> | Transaction<DB>,
  userId: number,
  n: { kind: 'ums.failed'; title: string; body: string; link: string },
  opts: { unlessUnread: boolean },
) => Promise<void>;

interface Claimed {
  id: number;
  user_id: number;
  channel_id: number | null;
  type: RobotMessage['type'];
  title: string;
  content: string;
  extra: RobotMessage['extra'];
  attempts: number;
  created_at: Date;
  /** When it became due: with the priority, its place in line for a paced channel's slots. */
  next_attempt_at: Date;
  priority: number;
  /** Channels still to try after this one. */
  fallback: number[];
  /** 'digest' for a merge of held-back messages (digest.ts). */
  source: string;
  /** This worker's claim: what it writes about the message is written only while the claim is still its. */
  claim_id: string;
}

const URGENT = 3;

/** The owner hears that a message failed for good (once until they read it: a broken channel fails many). */
async function tellFailed(
  notify: TellOwner,
  db: Kysely<DB> | Transaction<DB>,
  m: Claimed,
  reason: string,
): Promise<void> {
  await notify(
    db,
    m.user_id,
    {
      kind: 'ums.failed',
      title: `消息「${m.title.slice(0, 60) || '（无标题）'}」发送失败`,
      body: `${reason.slice(0, 300)}。之后失败的消息可在消息查询中按状态“失败”查看。`,
      link: '/UMS/queryMessage',
    },
    { unlessUnread: true },
  );
}

/** What an attempt cut short by its server's end says (its outcome `interrupted`). */
export const INTERRUPTED = '服务器在发送途中停止，不知道对方是否已收到；消息已重新排队发送';

/**
 * What a window is widened by: a second a minute (about 1.7 %), for a service that rounds the times it
 * counts (to the second, say) or measures its minute a little longer than ours.
 */
export const paceMargin = (w: PaceWindow) => Math.ceil(w.ms / 60);

/** Minutes after midnight of `at` in `timeZone`. */
export function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(at)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return Number(parts.hour) * 60 + Number(parts.minute);
}

/** When quiet hours [start, end) (minutes, may wrap midnight) hold at `now`, the instant they end; else null. */
export function quietUntil(now: Date, timeZone: string, start: number, end: number): Date | null {
  const m = localMinutes(now, timeZone);
  const quiet = start < end ? m >= start && m < end : m >= start || m < end;
  if (!quiet) return null;
  const wait = (end - m + 1440) % 1440;
  const minuteStart = now.getTime() - (now.getTime() % 60_000);
  return new Date(minuteStart + wait * 60_000);
}

export class DeliveryWorker {
  private readonly clock: () => Date;
  private readonly random: () => number;

  constructor(private readonly o: DeliveryOptions) {
    this.clock = o.clock ?? (() => new Date());
    this.random = o.random ?? Math.random;
  }

  /** Delay before attempt n+1 after n failed attempts: base·2^(n-1), with 50–100 % jitter. */
  backoffMs(failedAttempts: number): number {
    const base = this.o.retryBaseSeconds * 1000 * 2 ** Math.max(0, failedAttempts - 1);
    return Math.round(base * (0.5 + this.random() * 0.5));
  }

  private leaseMs(): number {
    return this.o.ums.timeoutMs + 5_000;
  }

  /**
   * An update of a message this worker still holds: claimed by it and not taken over since (its lease
   * ran out and another worker claimed it). Every change after the claim goes through it.
   */
  private owned(m: Claimed, db: Kysely<DB> | Transaction<DB> = this.o.db) {
    return db
      .updateTable('ums_messages')
      .where('id', '=', m.id)
      .where('status', '=', 'sending')
      .where('claim_id', '=', m.claim_id);
  }

  /**
   * After a crash of the only instance (embedded database), every `sending` row is an orphan, and every
   * attempt still pending was cut short.
   */
  async recoverOrphans(): Promise<number> {
    const now = this.clock();
    return this.o.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('ums_attempts')
        .set({ outcome: 'interrupted', done_at: now, errmsg: INTERRUPTED })
        .where('outcome', '=', 'pending')
        .execute();
      const res = await trx
        .updateTable('ums_messages')
        .set({ status: 'retrying', next_attempt_at: now, locked_until: null })
        .where('status', '=', 'sending')
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    });
  }

  /**
   * Takes the most urgent due message (or one whose lease ran out: its instance died) for this worker
   * alone, under a fresh claim id, leased for one attempt. Taking one over marks the attempt its dead
   * instance left pending as interrupted, in the same statement.
   */
  private async claim(): Promise<Claimed | null> {
    const now = this.clock();
    const lease = new Date(now.getTime() + this.leaseMs());
    const res = await sql<Claimed>`
      with due as (
        select id, status as was from ums_messages
         where (status in ('queued', 'retrying') and next_attempt_at <= ${now})
            or (status = 'sending' and locked_until < ${now})
         order by priority desc, next_attempt_at, id
         limit 1
         for update skip locked),
      claimed as (
        update ums_messages m
           set status = 'sending', locked_until = ${lease}, attempts = m.attempts + 1, claim_id = gen_random_uuid(),
               updated_at = now()
          from due
         where m.id = due.id
     returning m.id, m.user_id, m.channel_id, m.type, m.title, m.content, m.extra, m.attempts, m.created_at,
               m.next_attempt_at, m.priority, m.fallback, m.source, m.claim_id, due.was),
      interrupted as (
        update ums_attempts a
           set outcome = 'interrupted', done_at = ${now}, errmsg = ${INTERRUPTED}
          from claimed
         where claimed.was = 'sending' and a.message_id = claimed.id and a.outcome = 'pending')
      select id, user_id, channel_id, type, title, content, extra, attempts, created_at, next_attempt_at, priority,
             fallback, source, claim_id
        from claimed`.execute(this.o.db);
    return res.rows[0] ?? null;
  }

  /**
   * Processes every message due now; returns how many were attempted or deferred. Up to `concurrency`
   * workers each claim one message just before attempting it, so a claim (and its lease) only ever
   * covers a message being attempted: another instance takes over nothing that merely waits here.
   * Tests pass `{ concurrency: 1 }` to watch the claim order one message at a time.
   */
  async runOnce(opts: { concurrency?: number } = {}): Promise<number> {
    let total = 0;
    const work = async (claimed: Claimed | null) => {
      for (let m = claimed; m; m = await this.claim()) {
        total += 1;
        await this.deliver(m);
      }
    };
    // One claim first: an idle round costs one statement, not one per worker.
    const first = await this.claim();
    if (first) {
      const others = (opts.concurrency ?? this.o.concurrency ?? 8) - 1;
      await Promise.all([work(first), ...Array.from({ length: others }, async () => work(await this.claim()))]);
    }
    await sweepDigests(this.o.db, this.clock(), this.o.timeZone);
    await this.callbacks();
    return total;
  }

  /** Sends the callbacks of messages that reached their final state (callbacks.ts). */
  private async callbacks(): Promise<void> {
    const o = {
      db: this.o.db,
      secrets: this.o.ums.secrets,
      allowlist: this.o.ums.allowlist,
      ownHosts: this.o.ums.ownHosts,
      timeoutMs: this.o.ums.timeoutMs,
      maxAttempts: this.o.maxAttempts,
      backoffMs: (n: number) => this.backoffMs(n),
      now: this.clock,
    };
    while ((await sendDueCallbacks(o)) > 0) {
      // until no callback is due
    }
  }

  /** Not now (pacing, a pause, quiet hours): back in line at `until`, the attempt not counted. */
  private async defer(m: Claimed, until: Date, note?: string): Promise<void> {
    await this.owned(m)
      .set({
        status: note ? 'queued' : 'retrying',
        next_attempt_at: until,
        locked_until: null,
        attempts: m.attempts - 1,
        ...(note ? { last_error: note } : {}),
      })
      .execute();
  }

  /**
   * The current channel has failed for good (or is gone): a chain moves on to its next channel, with a
   * fresh retry budget and at once, the timeline going on across channels. Returns false at the end of
   * the chain.
   */
  private async fallBack(m: Claimed, reason: string, db: Kysely<DB> | Transaction<DB> = this.o.db): Promise<boolean> {
    if (m.fallback.length === 0) return false;
    // Channels deleted since the message was sent are skipped.
    const alive = new Set(
      (await db.selectFrom('ums_channels').select('id').where('id', 'in', m.fallback).execute()).map((r) => r.id),
    );
    const at = m.fallback.findIndex((id) => alive.has(id));
    if (at < 0) return false;
    const next = m.fallback[at];
    const rest = m.fallback.slice(at + 1);
    await this.owned(m, db)
      .set({
        status: 'queued',
        channel_id: next,
        fallback: rest,
        attempts: 0,
        next_attempt_at: this.clock(),
        locked_until: null,
        last_error: `${reason}（改用下一个渠道）`,
      })
      .execute();
    return true;
  }

  private async fail(m: Claimed, reason: string): Promise<void> {
    const res = await this.owned(m)
      .set({
        status: 'failed',
        last_error: reason,
        locked_until: null,
        next_attempt_at: null,
        ...callbackDue(this.clock()),
      })
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return;
    if (m.source === 'digest') await settleMerged(this.o.db, m.id, { status: 'failed', reason }, this.clock());
    await tellFailed(this.o.notify, this.o.db, m, reason);
  }

  /**
   * Reserves a slot in the pacing windows of the target's pace key: the channel row is locked to read
   * its throttle (FOR NO KEY UPDATE: workers queue on it, while a new message, whose foreign key takes
   * only a KEY SHARE lock on the row, never waits for a worker; FOR UPDATE made sends deadlock with
   * the workers of two instances on PostgreSQL), and a transaction-scoped advisory lock on the pace key is held while the windows are
   * counted and the pending attempt row is written, so concurrent workers (and several channels to one
   * e-mail address) cannot overshoot.
   */
  private async reserve(
    m: Claimed,
    target: ChannelTarget,
    adapter: ChannelAdapter,
  ): Promise<{ attemptId: number } | { deferUntil: Date; quiet?: boolean } | { lost: true }> {
    const now = this.clock();
    const paceKey = adapter.paceKey(target);
    const windows = adapter.windows(target, this.o.ums);
    return this.o.db.transaction().execute(async (trx) => {
      const ch = await trx
        .selectFrom('ums_channels')
        .select(['throttled_until', 'quiet_start', 'quiet_end'])
        .where('id', '=', target.id)
        .forNoKeyUpdate()
        .executeTakeFirst();
      // Still ours? (Waiting for the locks may have outlasted the lease, and another worker may have
      // taken the message over.) Then the lease starts again here, for the whole attempt: nobody can
      // take the message over while it is being sent.
      const held = await this.owned(m, trx)
        .set({ locked_until: new Date(now.getTime() + this.leaseMs()) })
        .executeTakeFirst();
      if (Number(held.numUpdatedRows) === 0) return { lost: true as const };
      if (ch?.throttled_until && ch.throttled_until.getTime() > now.getTime())
        return { deferUntil: ch.throttled_until };
      // Quiet hours: the message waits them out, unless it is urgent.
      if (ch && ch.quiet_start !== null && ch.quiet_end !== null && m.priority < URGENT) {
        const until = quietUntil(now, this.o.timeZone, ch.quiet_start, ch.quiet_end);
        if (until) return { deferUntil: until, quiet: true };
      }
      if (windows.length > 0) {
        await lockFor(trx, 'ums-pace', paceKey);
        const ahead = await this.ahead(trx, m, target.id, paceKey, Math.max(...windows.map((w) => w.max)));
        const deferUntil = await this.nextSlot(trx, paceKey, windows, ahead);
        if (deferUntil) return { deferUntil };
      }
      const row = await trx
        .insertInto('ums_attempts')
        .values({
          message_id: m.id,
          channel_id: target.id,
          pace_key: paceKey,
          at: now,
          duration_ms: 0,
          outcome: 'pending',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { attemptId: row.id };
    });
  }

  /**
   * When this message's slot comes, given the `ahead` messages that take the free ones first; null when
   * it is free now. A robot counts a message when it arrives, by its own clock, and the arrival can be
   * anywhere between the attempt's start and its answer: so an attempt stays in a window until a window
   * (plus a margin for the service's own rounding, PACE_MARGIN) after its answer, and an attempt still
   * in flight counts until it is answered. Pacing by the start of attempts let a robot see its 21st
   * message 59.3 s after the first, when the first left late.
   */
  private async nextSlot(
    trx: Transaction<DB>,
    paceKey: string,
    windows: PaceWindow[],
    ahead: number,
  ): Promise<Date | null> {
    const now = this.clock().getTime();
    const lease = this.leaseMs();
    const longest = Math.max(...windows.map((w) => w.ms + paceMargin(w)));
    // An attempt is answered within its lease (or its message is taken over): older ones are out.
    const rows = await trx
      .selectFrom('ums_attempts')
      .select(['at', 'done_at'])
      .where('pace_key', '=', paceKey)
      .where('at', '>', new Date(now - longest - lease))
      .execute();
    let until = 0;
    for (const w of windows) {
      const span = w.ms + paceMargin(w);
      // In the window: answered less than a span ago, or not answered yet. Counted from its answer,
      // or, still in flight, from now at the earliest (it is looked at again when its slot comes).
      const counted = rows
        .filter((r) => (r.done_at ?? new Date(r.at.getTime() + lease)).getTime() + span > now)
        .map((r) => (r.done_at ? r.done_at.getTime() : now))
        .sort((a, b) => a - b);
      const free = w.max - counted.length;
      if (ahead < free) continue;
      // The free slots go to the messages ahead; this one's comes when the k-th oldest attempt leaves
      // the window (or, when that attempt is one a message ahead has still to make, a span after now).
      const k = ahead + 1 - free;
      until = Math.max(until, (k <= counted.length ? counted[k - 1] : now) + span);
    }
    return until > 0 ? new Date(until) : null;
  }

  /**
   * How many messages (up to `limit`) are due on the same pace key — on this channel or another to the
   * same robot or address — that come before this one in line (more urgent, or as urgent and due
   * earlier) and have not taken their slot yet: one claimed by another worker or instance that has not
   * reached its reservation, or one waiting. The free slots are theirs first.
   */
  private async ahead(
    trx: Transaction<DB>,
    m: Claimed,
    channelId: number,
    paceKey: string,
    limit: number,
  ): Promise<number> {
    const now = this.clock();
    const r = await sql<{ n: number }>`
      select count(*)::int as n from (
        select 1
          from ums_messages o join ums_channels c on c.id = o.channel_id
         where (c.pace_key = ${paceKey} or c.id = ${channelId})
           and o.id <> ${m.id}
           and o.status in ('queued', 'retrying', 'sending')
           and o.next_attempt_at <= ${now}
           and (o.priority > ${m.priority}
                or (o.priority = ${m.priority}
                    and (o.next_attempt_at < ${m.next_attempt_at}
                         or (o.next_attempt_at = ${m.next_attempt_at} and o.id < ${m.id}))))
           and not exists (select 1 from ums_attempts a where a.message_id = o.id and a.outcome = 'pending')
         limit ${limit}) x`.execute(trx);
    return r.rows[0].n;
  }

  private async deliver(m: Claimed): Promise<void> {
    const count = (outcome: DeliveryOutcome) => this.o.onOutcome?.(outcome);
    try {
      const target = m.channel_id === null ? null : await loadTarget(this.o.db, this.o.ums, m.channel_id);
      if (!target) {
        if (!(await this.fallBack(m, '渠道已被删除'))) await this.fail(m, '渠道已被删除');
        return count('channel_deleted');
      }
      if (target.unconfirmed) {
        const reason = '收件邮箱尚未确认，未发送：收件人打开确认邮件中的链接后，可重新发送这条消息';
        if (!(await this.fallBack(m, reason))) await this.fail(m, reason);
        return count('unconfirmed');
      }
      const adapter = adapterOf(target.kind);
      const slot = await this.reserve(m, target, adapter);
      if ('lost' in slot) {
        this.o.log.info({ messageId: m.id }, 'ums message taken over by another worker before its attempt');
        return count('lost');
      }
      if ('deferUntil' in slot) {
        const at = new Intl.DateTimeFormat('zh-CN', {
          timeZone: this.o.timeZone,
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(slot.deferUntil);
        await this.defer(m, slot.deferUntil, slot.quiet ? `免打扰时段，推迟到 ${at} 发送` : undefined);
        return count('deferred');
      }

      const result = await adapter.send(
        target,
        { id: m.id, type: m.type, title: m.title, content: m.content, extra: m.extra, createdAt: m.created_at },
        this.o.ums,
      );
      await this.record(m, target.id, adapter.paceKey(target), adapter, slot.attemptId, result);
      count(result.outcome);
    } catch (err) {
      // A database or decryption problem: leave the message to be retried after its lease.
      count('error');
      this.o.log.error({ err, messageId: m.id }, 'ums delivery failed unexpectedly');
    }
  }

  private async record(
    m: Claimed,
    channelId: number,
    paceKey: string,
    adapter: ChannelAdapter,
    attemptId: number,
    r: SendResult,
  ): Promise<void> {
    const now = this.clock();
    let throttledUntil: Date | null = null;
    const reason = [r.hint, r.errcode !== null ? `errcode ${r.errcode}` : null, r.errmsg].filter(Boolean).join('；');
    const kept = await this.o.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('ums_attempts')
        .set({
          http_status: r.httpStatus,
          errcode: r.errcode,
          errmsg: r.errmsg,
          detail: r.detail,
          duration_ms: r.durationMs,
          outcome: r.outcome,
          done_at: now,
        })
        .where('id', '=', attemptId)
        .execute();
      if (r.outcome === 'rate_limited') {
        // The pause is the robot's (or address's): every channel to it waits, whoever holds the message now.
        const pause = Math.min(MAX_THROTTLE_MS, Math.max(1000, r.retryAfterMs ?? adapter.throttleMs));
        throttledUntil = new Date(now.getTime() + pause);
        await trx
          .updateTable('ums_channels')
          .set({ throttled_until: throttledUntil })
          .where((eb) => eb.or([eb('id', '=', channelId), eb('pace_key', '=', paceKey)]))
          .execute();
      }
      // The attempt happened and is recorded as it went; the message's state is this worker's to
      // change only while its claim holds (the lease covers an attempt, so only a worker that stalled
      // past it can lose the message to another).
      const mine = await trx
        .selectFrom('ums_messages')
        .select('id')
        .where('id', '=', m.id)
        .where('status', '=', 'sending')
        .where('claim_id', '=', m.claim_id)
        .forUpdate()
        .executeTakeFirst();
      if (!mine) return false;
      const base = this.owned(m, trx);
      if (r.outcome === 'delivered') {
        await base
          .set({
            status: 'delivered',
            delivered_at: now,
            locked_until: null,
            last_error: null,
            next_attempt_at: null,
            ...callbackDue(now),
          })
          .execute();
        if (m.source === 'digest') await settleMerged(trx, m.id, { status: 'delivered', reason: null }, now);
      } else if (r.outcome === 'permanent') {
        if (!(await this.fallBack(m, reason, trx))) {
          await base
            .set({
              status: 'failed',
              last_error: reason,
              locked_until: null,
              next_attempt_at: null,
              ...callbackDue(now),
            })
            .execute();
          await tellFailed(this.o.notify, trx, m, reason);
        }
        if (m.source === 'digest' && !m.fallback.length)
          await settleMerged(trx, m.id, { status: 'failed', reason }, now);
      } else if (r.outcome === 'rate_limited') {
        // A throttled attempt does not count against the message's retry budget.
        await base
          .set({
            status: 'retrying',
            next_attempt_at: throttledUntil!,
            locked_until: null,
            attempts: m.attempts - 1,
            last_error: reason,
          })
          .execute();
      } else if (m.attempts >= this.o.maxAttempts) {
        const gaveUp = `重试 ${m.attempts} 次后仍失败：${reason}`;
        if (!(await this.fallBack(m, gaveUp, trx))) {
          await base
            .set({
              status: 'failed',
              last_error: gaveUp,
              locked_until: null,
              next_attempt_at: null,
              ...callbackDue(now),
            })
            .execute();
          await tellFailed(this.o.notify, trx, m, gaveUp);
        }
        if (m.source === 'digest' && !m.fallback.length)
          await settleMerged(trx, m.id, { status: 'failed', reason: gaveUp }, now);
      } else {
        const next = new Date(now.getTime() + this.backoffMs(m.attempts));
        await base.set({ status: 'retrying', next_attempt_at: next, locked_until: null, last_error: reason }).execute();
      }
      return true;
    });
    if (!kept) {
      this.o.log.warn(
        { messageId: m.id, channelId, outcome: r.outcome },
        'ums attempt ended after another worker had taken the message over',
      );
    }
    const failed = r.outcome === 'permanent' || r.outcome === 'transient';
    const run = await recordChannelHealth(
      this.o.db,
      channelId,
      r.outcome === 'delivered',
      reason,
      failed ? 'bump' : r.outcome === 'delivered' ? 'reset' : undefined,
    );
    if (failed && run === this.o.failingNotifyAt)
      await tellChannelFailing(this.o.notifyAdmins, this.o.db, this.o.log, channelId, run, r);
    if (r.outcome !== 'delivered') {
      this.o.log.warn(
        { messageId: m.id, channelId, outcome: r.outcome, errcode: r.errcode, httpStatus: r.httpStatus },
        'ums attempt failed',
      );
    }
  }
}
