/**
 * Answering one question for one user, as the OCS API and the ask page do: validate, apply the
 * per-token rate limit, look the question up in the bank (then ask the AI when the bank has no
 * confident match and the user's strategy allows it), charge, and log. Never throws for business
 * outcomes: the caller gets `{code: 0, msg}` and nothing is charged.
 */
import type { Kysely } from 'kysely';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { OcsQueryResult } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { findInBank, optionsHash, type BankIndexSync, type HitCounter } from './bank';
import { normalizeTitle, normalizeType, splitOptions, titleHash, type OcsQuestionType } from './normalize';
import type { SettingsCache } from './settings';
import {
  chargeForAnswer,
  logUnanswered,
  recentAnswer,
  type ChargeBatcher,
  type ChargeInput,
  type ChargeResult,
} from './wallet';

export interface Asker {
  userId: number;
  tokenId: number | null;
}

export interface Question {
  title: string;
  type: OcsQuestionType;
  options: string[];
  norm: string;
  /** Normalized title, type and option set: the cache and single-flight key. */
  key: string;
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

// Control characters (other than tab and newlines), lone surrogates and U+FFFD: not a question.
const GARBAGE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Validates raw OCS parameters into a question, or a Chinese message. */
export function parseQuestion(raw: { title?: unknown; type?: unknown; options?: unknown }): Question | string {
  if (typeof raw.title !== 'string' || raw.title.trim() === '') return '题目不能为空';
  if (raw.title.length > 2000) return '题目过长（不能超过 2000 个字符）';
  if (GARBAGE.test(raw.title)) return '题目包含无法识别的字符';
  const rawOptions = raw.options;
  if (
    rawOptions !== undefined &&
    typeof rawOptions !== 'string' &&
    !(Array.isArray(rawOptions) && rawOptions.every((o) => typeof o === 'string'))
  ) {
    return '选项格式不正确';
  }
  const joined = Array.isArray(rawOptions) ? rawOptions.join('\n') : (rawOptions ?? '');
  if (joined.length > 20_000) return '选项过长';
  if (GARBAGE.test(joined)) return '选项包含无法识别的字符';
  const options = splitOptions(rawOptions as string | string[] | undefined);
  if (options.length > 26) return '选项过多（不能超过 26 个）';
  const norm = normalizeTitle(raw.title);
  if (!norm) return '题目不能为空';
  const type = normalizeType(raw.type);
  const key = titleHash(`${norm}\u0002${type}\u0002${optionsHash(options)}`);
  return { title: raw.title, type, options, norm, key };
}

export interface OcsServiceDeps {
  db: Kysely<DB>;
  bank: BankIndexSync;
  hits?: HitCounter;
  /** Embedded database: charges share commits. */
  batcher?: ChargeBatcher;
  settings: SettingsCache;
  strategyOf?: (userId: number) => Promise<Strategy>;
  ai?: AiAnswerer;
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
        new RateLimiterMemory({ points: s.ratePerSecond, duration: 1 }),
        new RateLimiterMemory({
          keyPrefix: 'burst',
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
    const run = this.run(asker, q).finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, run);
    return run;
  }

  private charge(c: ChargeInput): Promise<ChargeResult> {
    return this.deps.batcher ? this.deps.batcher.charge(c) : chargeForAnswer(this.deps.db, c);
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
      const match = await findInBank(db, this.deps.bank.index, q, settings.fuzzyThreshold);
      if (match) {
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
        });
        if (charged.status !== 'no_balance') this.deps.hits?.add(match.id);
        return this.result(charged, match.question, match.answer, 'bank', settings.bankPrice);
      }
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
        await log(ai.outcome, ai.msg, ai.modelId ?? null);
        return fail(ai.msg);
      }
    }
    const msg = strategy === 'ai' ? '当前没有可用的 AI 模型' : '题库中未找到该题';
    await log('miss', msg);
    return fail(msg);
  }

  private result(c: ChargeResult, question: string, answer: string, source: 'bank' | 'ai', price: number): OcsResult {
    if (c.status === 'no_balance') {
      return fail(`余额不足：当前 ${c.balance} 积分，本题需要 ${price} 积分。请到「免费领取」领取积分或使用兑换码`);
    }
    return { code: 1, question, answer, source, cost: c.cost, balance: c.balance };
  }
}
