/**
 * The UMS delivery worker: one round (`runOnce`) per call; the scheduler (server/scheduler.ts) runs the
 * rounds and wakes them when a message arrives. Claims due messages with FOR UPDATE SKIP LOCKED (so two instances never
 * take the same attempt), enforces the per-robot limit and the 10-minute throttle through the
 * database (so they hold across instances), sends, records every attempt, and schedules retries with
 * exponential backoff and jitter. Time comes from an injectable clock so tests never sleep.
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/schema';
import { channelSecrets, recordChannelHealth, type UmsContext } from './channels';
import { robotBody, sendToRobot, type Outcome, type RobotMessage, type SendResult } from './dingtalk';

export const THROTTLE_MS = 10 * 60_000;
const LIMIT_WINDOW_MS = 60_000;

/** What became of one claimed message in a round (metrics): DingTalk's answer, or why none was asked. */
export type DeliveryOutcome = Outcome | 'deferred' | 'channel_deleted' | 'error';

export interface DeliveryOptions {
  db: Kysely<DB>;
  ums: UmsContext;
  log: FastifyBaseLogger;
  maxAttempts: number;
  retryBaseSeconds: number;
  /** Per-robot messages per minute; 0 = no limit. */
  robotPerMinute: number;
  clock?: () => Date;
  random?: () => number;
  batchSize?: number;
  concurrency?: number;
  /** Told the outcome of every claimed message (metrics). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

interface Claimed {
  id: number;
  channel_id: number | null;
  type: RobotMessage['type'];
  title: string;
  content: string;
  extra: RobotMessage['extra'];
  attempts: number;
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

  /** After a crash of the only instance (embedded database), every `sending` row is an orphan. */
  async recoverOrphans(): Promise<number> {
    const res = await this.o.db
      .updateTable('ums_messages')
      .set({ status: 'retrying', next_attempt_at: this.clock(), locked_until: null })
      .where('status', '=', 'sending')
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const now = this.clock();
    const lease = new Date(now.getTime() + this.leaseMs());
    const res = await sql<Claimed>`
      update ums_messages m
         set status = 'sending', locked_until = ${lease}, attempts = m.attempts + 1, updated_at = now()
        from (select id from ums_messages
               where (status in ('queued', 'retrying') and next_attempt_at <= ${now})
                  or (status = 'sending' and locked_until < ${now})
               order by next_attempt_at, id
               limit ${limit}
               for update skip locked) due
       where m.id = due.id
   returning m.id, m.channel_id, m.type, m.title, m.content, m.extra, m.attempts`.execute(this.o.db);
    return res.rows;
  }

  /** Processes every message due now (in batches); returns how many were attempted or deferred. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.claim(this.o.batchSize ?? 50);
      if (batch.length === 0) return total;
      total += batch.length;
      const queue = [...batch];
      const workers = Array.from({ length: Math.min(this.o.concurrency ?? 8, queue.length) }, async () => {
        for (let m = queue.shift(); m; m = queue.shift()) await this.deliver(m);
      });
      await Promise.all(workers);
    }
  }

  private async defer(m: Claimed, until: Date): Promise<void> {
    await this.o.db
      .updateTable('ums_messages')
      .set({ status: 'retrying', next_attempt_at: until, locked_until: null, attempts: m.attempts - 1 })
      .where('id', '=', m.id)
      .where('status', '=', 'sending')
      .execute();
  }

  private async fail(m: Claimed, reason: string): Promise<void> {
    await this.o.db
      .updateTable('ums_messages')
      .set({ status: 'failed', last_error: reason, locked_until: null, next_attempt_at: null })
      .where('id', '=', m.id)
      .execute();
  }

  /**
   * Reserves a slot in the robot's per-minute window: the channel row is locked while the window is
   * counted and the pending attempt row is written, so concurrent workers cannot overshoot.
   */
  private async reserve(m: Claimed, channelId: number): Promise<{ attemptId: number } | { deferUntil: Date }> {
    const now = this.clock();
    return this.o.db.transaction().execute(async (trx) => {
      const ch = await trx
        .selectFrom('ums_channels')
        .select('throttled_until')
        .where('id', '=', channelId)
        .forUpdate()
        .executeTakeFirst();
      if (ch?.throttled_until && ch.throttled_until.getTime() > now.getTime())
        return { deferUntil: ch.throttled_until };
      if (this.o.robotPerMinute > 0) {
        const recent = await trx
          .selectFrom('ums_attempts')
          .select('at')
          .where('channel_id', '=', channelId)
          .where('at', '>', new Date(now.getTime() - LIMIT_WINDOW_MS))
          .orderBy('at', 'desc')
          .limit(this.o.robotPerMinute)
          .execute();
        if (recent.length >= this.o.robotPerMinute) {
          const oldest = recent[recent.length - 1].at.getTime();
          return { deferUntil: new Date(oldest + LIMIT_WINDOW_MS) };
        }
      }
      const row = await trx
        .insertInto('ums_attempts')
        .values({ message_id: m.id, channel_id: channelId, at: now, duration_ms: 0, outcome: 'pending' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { attemptId: row.id };
    });
  }

  private async deliver(m: Claimed): Promise<void> {
    const count = (outcome: DeliveryOutcome) => this.o.onOutcome?.(outcome);
    try {
      const secrets = m.channel_id === null ? null : await channelSecrets(this.o.db, this.o.ums, m.channel_id);
      if (m.channel_id === null || !secrets) {
        await this.fail(m, '渠道已被删除');
        return count('channel_deleted');
      }
      const slot = await this.reserve(m, m.channel_id);
      if ('deferUntil' in slot) {
        await this.defer(m, slot.deferUntil);
        return count('deferred');
      }

      const result = await sendToRobot(
        secrets.webhook,
        secrets.secret,
        robotBody(m, secrets.keyword),
        this.o.ums.timeoutMs,
      );
      await this.record(m, m.channel_id, slot.attemptId, result);
      count(result.outcome);
    } catch (err) {
      // A database or decryption problem: leave the message to be retried after its lease.
      count('error');
      this.o.log.error({ err, messageId: m.id }, 'ums delivery failed unexpectedly');
    }
  }

  private async record(m: Claimed, channelId: number, attemptId: number, r: SendResult): Promise<void> {
    const now = this.clock();
    const reason = [r.hint, r.errcode !== null ? `errcode ${r.errcode}` : null, r.errmsg].filter(Boolean).join('；');
    await this.o.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('ums_attempts')
        .set({
          http_status: r.httpStatus,
          errcode: r.errcode,
          errmsg: r.errmsg,
          detail: r.detail,
          duration_ms: r.durationMs,
          outcome: r.outcome,
        })
        .where('id', '=', attemptId)
        .execute();
      const base = trx.updateTable('ums_messages').where('id', '=', m.id).where('status', '=', 'sending');
      if (r.outcome === 'delivered') {
        await base
          .set({ status: 'delivered', delivered_at: now, locked_until: null, last_error: null, next_attempt_at: null })
          .execute();
      } else if (r.outcome === 'permanent') {
        await base.set({ status: 'failed', last_error: reason, locked_until: null, next_attempt_at: null }).execute();
      } else if (r.outcome === 'rate_limited') {
        const until = new Date(now.getTime() + THROTTLE_MS);
        await trx.updateTable('ums_channels').set({ throttled_until: until }).where('id', '=', channelId).execute();
        // A throttled attempt does not count against the message's retry budget.
        await base
          .set({
            status: 'retrying',
            next_attempt_at: until,
            locked_until: null,
            attempts: m.attempts - 1,
            last_error: reason,
          })
          .execute();
      } else if (m.attempts >= this.o.maxAttempts) {
        await base
          .set({
            status: 'failed',
            last_error: `重试 ${m.attempts} 次后仍失败：${reason}`,
            locked_until: null,
            next_attempt_at: null,
          })
          .execute();
      } else {
        const next = new Date(now.getTime() + this.backoffMs(m.attempts));
        await base.set({ status: 'retrying', next_attempt_at: next, locked_until: null, last_error: reason }).execute();
      }
    });
    await recordChannelHealth(this.o.db, channelId, r.outcome === 'delivered', reason);
    if (r.outcome !== 'delivered') {
      this.o.log.warn(
        { messageId: m.id, channelId, outcome: r.outcome, errcode: r.errcode, httpStatus: r.httpStatus },
        'ums attempt failed',
      );
    }
  }
}
