/**
 * Answering one question for one user, as the OCS API and the ask page do (OcsService): the per-token
 * rate limit, then the bank (exact, then fuzzy), then the AI when the bank has no confident match and
 * the user's strategy allows it; charge, and log. Never throws for business outcomes: the caller gets
 * `{code: 0, msg}` and nothing is charged.
 */
import type { Kysely } from 'kysely';
import { BurstyRateLimiter, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { OcsQueryResult } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import type { OcsSettings, SettingsCache } from '../admin/settings';
import type { HitCounter } from '../bank/hit-counter';
import type { BankIndexSync } from '../bank/index-sync';
import { findInBank } from '../bank/match';
import { chargeForAnswer, type ChargeBatcher, type ChargeInput, type ChargeResult } from '../wallet/charge';
import { logUnanswered, recentAnswer } from './log';
import type { CountQuery } from './metrics';
import type { Question } from './question';

export interface Asker {
  userId: number;
  tokenId: number | null;
}

export type Strategy = 'bank_ai' | 'bank' | 'ai';

export type AiOutcome =
  | { ok: true; answer: string; question: string; price: number; modelId: number; questionId: number | null }
  | { ok: false; outcome: 'miss' | 'error' | 'no_balance'; msg: string; modelId?: number | null };

/** Part 2's AI answerer, behind the bank. */
export interface AiAnswerer {
  answer(userId: number, q: Question): Promise<AiOutcome>;
}

export type OcsResult = OcsQueryResult;

const fail = (msg: string): OcsResult => ({ code: 0, msg });

export interface OcsServiceDeps {
  db: Kysely<DB>;
  /** The in-memory bank: fuzzy candidates, and exact matches without a database round trip. */
  bank: BankIndexSync;
  hits?: HitCounter;
  /** Charges that arrive together share one statement and one commit. */
  batcher?: ChargeBatcher;
  settings: SettingsCache;
  strategyOf?: (userId: number) => Promise<Strategy>;
  ai?: AiAnswerer;
  /** Told the outcome and source of every answer run (metrics). */
  onOutcome?: CountQuery;
  /** Builds the per-token limiters (shared by every instance: server/plugins/limits.ts). */
  limiter: (spec: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;
}

export class TooFast extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too fast');
  }
}

export class OcsService {
  private limiter: BurstyRateLimiter | null = null;
  private limiterShape = '';
  private readonly inflight = new Map<string, Promise<OcsResult>>();
  ai: AiAnswerer | undefined;
  strategyOf: (userId: number) => Promise<Strategy>;

  constructor(private readonly deps: OcsServiceDeps) {
    this.ai = deps.ai;
    this.strategyOf = deps.strategyOf ?? (async () => 'bank_ai');
  }

  /** Throws TooFast when the caller (a token, or a user on the ask page) is over the limit. */
  async checkRate(key: string): Promise<void> {
    const s = await this.deps.settings.get();
    const shape = `${s.ratePerSecond}/${s.rateBurst}`;
    if (!this.limiter || shape !== this.limiterShape) {
      // ratePerSecond every second, plus a pool that lets a burst reach rateBurst in its first second.
      const extra = Math.max(1, s.rateBurst - s.ratePerSecond);
      this.limiter = new BurstyRateLimiter(
        this.deps.limiter({ keyPrefix: `ocs-rate-${shape}`, points: s.ratePerSecond, duration: 1 }),
        this.deps.limiter({
          keyPrefix: `ocs-burst-${shape}`,
          points: extra,
          duration: Math.max(1, Math.ceil(extra / s.ratePerSecond)),
        }),
      );
      this.limiterShape = shape;
    }
    try {
      await this.limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new TooFast(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
      throw err;
    }
  }

  /**
   * The whole answer path. Identical concurrent questions of one user share one run, so a double
   * click or a retrying script is charged once.
   */
  async answer(asker: Asker, q: Question): Promise<OcsResult> {
    const flightKey = `${asker.userId}:${q.key}`;
    const running = this.inflight.get(flightKey);
    // A joiner was not charged: only the first run paid.
    if (running) return running.then((r) => (r.code === 1 ? { ...r, cost: 0 } : r));
    const run = this.run(asker, q)
      .catch((err: unknown) => {
        this.deps.onOutcome?.('failed', 'none');
        throw err;
      })
      .finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, run);
    return run;
  }

  private charge(c: ChargeInput): Promise<ChargeResult> {
    return this.deps.batcher ? this.deps.batcher.charge(c) : chargeForAnswer(this.deps.db, c);
  }

  /**
   * A bank answer, charged. An exact match from memory is charged on the condition that its question
   * is still as memory has it; if it changed meanwhile, the question is looked up again in the database.
   */
  private async fromBank(asker: Asker, q: Question, settings: OcsSettings): Promise<OcsResult | null> {
    const { db, bank } = this.deps;
    for (let attempt = 0; attempt < 2; attempt++) {
      const match = await findInBank(db, bank.index, q, settings.fuzzyThreshold, {
        memory: bank,
        fromMemory: attempt === 0,
      });
      if (!match) return null;
      const charged = await this.charge({
        userId: asker.userId,
        tokenId: asker.tokenId,
        price: settings.bankPrice,
        key: q.key,
        title: q.title,
        type: q.type,
        outcome: 'bank',
        questionId: match.id,
        modelId: null,
        answer: match.answer,
        version: match.version,
      });
      if (charged.status === 'stale') continue;
      if (charged.status !== 'no_balance') this.deps.hits?.add(match.id);
      return this.result(charged, match.question, match.answer, 'bank', settings.bankPrice);
    }
    throw new Error('a bank answer read from the database was refused as stale');
  }

  private async run(asker: Asker, q: Question): Promise<OcsResult> {
    const { db } = this.deps;
    const settings = await this.deps.settings.get();
    const strategy = await this.strategyOf(asker.userId);
    const log = (outcome: 'miss' | 'error' | 'no_balance', msg: string, modelId: number | null = null) =>
      logUnanswered(db, {
        userId: asker.userId,
        tokenId: asker.tokenId,
        key: q.key,
        title: q.title,
        type: q.type,
        outcome,
        message: msg,
        modelId,
      });

    if (strategy !== 'ai') {
      const answered = await this.fromBank(asker, q, settings);
      if (answered) return answered;
    }
    if (strategy !== 'bank' && this.ai) {
      const cached = await recentAnswer(db, asker.userId, q.key);
      const ai = cached ? null : await this.ai.answer(asker.userId, q);
      if (cached || ai?.ok) {
        const answer = cached ? cached.answer : (ai as Extract<AiOutcome, { ok: true }>).answer;
        const good = ai && ai.ok ? ai : null;
        const charged = await this.charge({
          userId: asker.userId,
          tokenId: asker.tokenId,
          price: good?.price ?? 0,
          key: q.key,
          title: q.title,
          type: q.type,
          outcome: 'ai',
          questionId: good?.questionId ?? cached?.question_id ?? null,
          modelId: good?.modelId ?? null,
          answer,
        });
        return this.result(charged, good?.question ?? q.title, answer, 'ai', good?.price ?? 0);
      }
      if (ai && !ai.ok) {
        this.deps.onOutcome?.(ai.outcome, 'ai');
        await log(ai.outcome, ai.msg, ai.modelId ?? null);
        return fail(ai.msg);
      }
    }
    const msg = strategy === 'ai' ? '当前没有可用的 AI 模型' : '题库中未找到该题';
    this.deps.onOutcome?.('miss', 'none');
    await log('miss', msg);
    return fail(msg);
  }

  private result(c: ChargeResult, question: string, answer: string, source: 'bank' | 'ai', price: number): OcsResult {
    if (c.status === 'stale') throw new Error('an answer without a question version was refused as stale');
    this.deps.onOutcome?.(c.status === 'no_balance' ? 'no_balance' : 'answered', source);
    if (c.status === 'no_balance') {
      return fail(`余额不足：当前 ${c.balance} 积分，本题需要 ${price} 积分。请到「免费领取」领取积分或使用兑换码`);
    }
    return { code: 1, question, answer, source, cost: c.cost, balance: c.balance };
  }
}
