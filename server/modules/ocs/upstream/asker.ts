/**
 * Asking the upstream banks on a miss (OcsService's UpstreamSource): every enabled upstream whose
 * circuit breaker is closed and whose daily budget (counted in the database, so shared by every
 * instance) is not spent, at once, each within its own timeout. A reply's answer is read the way an AI
 * reply is (letters or option texts, 正确/错误, blanks: ai/parse.ts) and must fit the caller's options;
 * garbage, errors and timeouts cost the user nothing and count against the upstream (its figures and
 * its breaker). The list of upstreams is cached for a few seconds; this instance's own changes clear it.
 */
import { sql, type Kysely } from 'kysely';
import { answerText, type UpstreamTestResult } from '@contract';
import type { DB } from '../../../db/schema';
import type { SecretBox } from '../../../lib/secretbox';
import { parseAnswerPieces } from '../ai/parse';
import { inCallerText } from '../bank/answer';
import { notifyAdmins } from '../../notifications';
import type { Question } from '../query/question';
import type { UpstreamAnswer, UpstreamSource } from '../query/service';
import { CircuitBreaker } from './breaker';
import { callUpstream, type CallOutcome, type UpstreamSpec } from './request';
import { listUpstreamRows, type UpstreamRow } from './store';

const LIST_TTL_MS = 5_000;

/** The question as an upstream receives it: ${options} is the caller's own options, one a line. */
function asSent(q: Question) {
  return { title: q.title, type: q.type, options: q.ownOptions.join('\n') };
}

export class UpstreamAsker implements UpstreamSource {
  private cached: { at: number; rows: UpstreamRow[] } | null = null;
  readonly breakers = new Map<number, CircuitBreaker>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly secrets: SecretBox,
    private readonly tz: string,
    /** ADMIN_URL_ALLOWLIST: upstreams that may be on an inward address. */
    private readonly allowlist: readonly string[],
    private readonly log?: { warn(obj: object, msg: string): void },
  ) {}

  invalidate(): void {
    this.cached = null;
  }

  private async enabledRows(): Promise<UpstreamRow[]> {
    if (!this.cached || Date.now() - this.cached.at > LIST_TTL_MS) {
      this.cached = { at: Date.now(), rows: (await listUpstreamRows(this.db)).filter((r) => r.enabled) };
    }
    return this.cached.rows;
  }

  async enabled(): Promise<boolean> {
    return (await this.enabledRows()).length > 0;
  }

  breaker(row: UpstreamRow): CircuitBreaker {
    let b = this.breakers.get(Number(row.id));
    if (!b) {
      b = new CircuitBreaker(row.breaker_threshold, row.breaker_cooldown_ms);
      this.breakers.set(Number(row.id), b);
    }
    b.threshold = row.breaker_threshold;
    b.cooldownMs = row.breaker_cooldown_ms;
    return b;
  }

  spec(row: UpstreamRow): UpstreamSpec {
    return {
      url: row.url,
      method: row.method,
      bodyType: row.body_type,
      headers: row.headers,
      data: row.data,
      answerPath: row.answer_path,
      secret: row.secret_enc ? this.secrets.decrypt(row.secret_enc) : null,
      timeoutMs: row.timeout_ms,
      allowlist: this.allowlist,
    };
  }

  /**
   * Every enabled upstream's answer that fits the caller's question, in the upstreams' order; each is
   * also told to `onAnswer` the moment it came.
   */
  async ask(q: Question, onAnswer?: (a: UpstreamAnswer) => void): Promise<UpstreamAnswer[]> {
    const rows = await this.enabledRows();
    const answers = await Promise.all(
      rows.map(async (r, rank) => {
        const a = await this.askOne(r, q, rank);
        if (a) onAnswer?.(a);
        return a;
      }),
    );
    return answers.filter((a): a is UpstreamAnswer => a !== null);
  }

  /** Takes one call from today's budget (all instances together); false when it is spent. */
  private async reserve(row: UpstreamRow): Promise<boolean> {
    const today = sql<string>`(now() at time zone ${this.tz})::date`;
    const r = await this.db
      .updateTable('ocs_upstreams')
      .set({
        budget_used: sql<number>`case when budget_day = ${today} then budget_used + 1 else 1 end`,
        budget_day: sql<string>`${today}`,
      })
      .where('id', '=', row.id)
      .where((eb) =>
        eb.or([
          eb('daily_budget', 'is', null),
          sql<boolean>`budget_day is distinct from ${today}`,
          eb('budget_used', '<', eb.ref('daily_budget')),
        ]),
      )
      .returning('id')
      .executeTakeFirst();
    return !!r;
  }

  /** The administrators hear that an upstream's breaker opened (once until they read it). */
  private tellOpened(row: UpstreamRow, error: string): void {
    notifyAdmins(this.db, {
      kind: 'ocs.upstream.open',
      title: `上游题库「${row.name}」已熔断`,
      body: `连续失败（最近一次：${error.slice(0, 200)}），${Math.round(row.breaker_cooldown_ms / 1000)} 秒内不再调用，之后试探恢复。`,
      link: '/OCS/OCSAdmin/upstreams',
    }).catch((err: unknown) => this.log?.warn({ err }, 'ocs upstream breaker notification failed'));
  }

  private async askOne(row: UpstreamRow, q: Question, rank: number): Promise<UpstreamAnswer | null> {
    const breaker = this.breaker(row);
    if (!breaker.tryAcquire()) return null;
    let reserved: boolean;
    try {
      reserved = await this.reserve(row);
    } catch (err) {
      breaker.release();
      throw err;
    }
    if (!reserved) {
      breaker.release();
      return null;
    }
    let spec: UpstreamSpec;
    try {
      spec = this.spec(row);
    } catch {
      // The secret cannot be read (PORTAL_SECRET changed): as good as a failing upstream.
      await this.record(row, {
        kind: 'failed',
        error: '密钥无法解密（PORTAL_SECRET 是否改过？）',
        status: null,
        latencyMs: 0,
        body: null,
      });
      if (breaker.failure()) this.tellOpened(row, '密钥无法解密');
      return null;
    }
    const outcome = await callUpstream(spec, asSent(q));
    const parsed = outcome.kind === 'answered' ? parseAnswerPieces(outcome.pieces, q) : null;
    const fits = parsed !== null && 'answer' in parsed;
    // An answer that fits none of the caller's options is this upstream's "not found".
    const counted: CallOutcome =
      outcome.kind === 'answered' && !fits
        ? { kind: 'not_found', status: outcome.status, latencyMs: outcome.latencyMs, body: outcome.body }
        : outcome;
    if (counted.kind === 'failed') {
      if (breaker.failure()) this.tellOpened(row, counted.error);
      this.log?.warn({ upstream: row.name, error: counted.error, latencyMs: counted.latencyMs }, 'ocs upstream failed');
    } else breaker.success();
    await this.record(row, counted).catch(() => undefined);
    if (!fits) return null;
    const stored = (parsed as { answer: string[] }).answer;
    return { id: Number(row.id), name: row.name, rank, answer: inCallerText(stored, q), stored, price: row.price };
  }

  /** The upstream's running figures. */
  private async record(row: UpstreamRow, o: CallOutcome): Promise<void> {
    await this.db
      .updateTable('ocs_upstreams')
      .set({
        calls: sql<number>`calls + 1`,
        answered: sql<number>`answered + ${o.kind === 'answered' ? 1 : 0}`,
        not_found: sql<number>`not_found + ${o.kind === 'not_found' ? 1 : 0}`,
        failures: sql<number>`failures + ${o.kind === 'failed' ? 1 : 0}`,
        latency_ms_total: sql<number>`latency_ms_total + ${o.latencyMs}`,
        last_latency_ms: o.latencyMs,
        ...(o.kind === 'failed'
          ? { last_error: o.error.slice(0, 500), last_error_at: sql<Date>`now()` }
          : { last_ok_at: sql<Date>`now()` }),
      })
      .where('id', '=', row.id)
      .execute();
  }

  /** The administrators' test call: no budget, breaker, figures or charge; the answer is not stored. */
  async test(row: UpstreamRow, q: Question): Promise<UpstreamTestResult> {
    const outcome = await callUpstream(this.spec(row), asSent(q));
    if (outcome.kind === 'failed') {
      return {
        outcome: 'failed',
        answer: null,
        error: outcome.error,
        status: outcome.status,
        latencyMs: outcome.latencyMs,
        body: outcome.body,
      };
    }
    if (outcome.kind === 'not_found') {
      return {
        outcome: 'not_found',
        answer: null,
        error: null,
        status: outcome.status,
        latencyMs: outcome.latencyMs,
        body: outcome.body,
      };
    }
    const parsed = parseAnswerPieces(outcome.pieces, q);
    if ('error' in parsed) {
      return {
        outcome: 'not_found',
        answer: null,
        error: `答案“${answerText(outcome.pieces).slice(0, 60)}”与题目选项对不上：${parsed.error}`,
        status: outcome.status,
        latencyMs: outcome.latencyMs,
        body: outcome.body,
      };
    }
    return {
      outcome: 'answered',
      answer: answerText(inCallerText(parsed.answer, q)),
      error: null,
      status: outcome.status,
      latencyMs: outcome.latencyMs,
      body: outcome.body,
    };
  }
}
