/**
 * Answering questions for one user, as the OCS API and the ask page do (OcsService): the per-token
 * rate limit, then the bank (exact, then fuzzy); when the bank has no answer the user accepts, the
 * enabled upstream banks and then the AI (as the user's strategy allows), the answer the sources agree
 * on (confidence.ts), within the latency budget; charge, and log. Never throws for business outcomes:
 * the caller gets `{code: 0, msg}` and nothing is charged.
 *
 * Batches (answerMany) answer each question as answer() would — single flight, the 10-minute free
 * repeat, charged only when answered — and charge them in page order in one statement; once the
 * balance runs short, the rest of the batch that would cost anything says 余额不足 (ocs_charge_many's
 * stop rule, migration 0012).
 */
import type { Kysely } from 'kysely';
import { BurstyRateLimiter, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { splitOcsAnswer, toOcsAnswer, type OcsQueryResult } from '@contract';
import type { DB } from '../../../db/schema';
import type { OcsSettings, SettingsCache } from '../admin/settings';
import type { HitCounter } from '../bank/hit-counter';
import type { BankIndexSync } from '../bank/index-sync';
import { findInBank } from '../bank/match';
import { storeMachineAnswer } from '../bank/store';
import {
  chargeForAnswer,
  chargeManyLabelled,
  type ChargeBatcher,
  type ChargeInput,
  type ChargeResult,
} from '../wallet/charge';
import { inCallerText } from '../bank/answer';
import { bankConfidence, vote, type Candidate } from './confidence';
import { answerFromLog, logAnswer, logUnanswered, recentAnswer } from './log';
import type { CountQuery, QuerySource } from './metrics';
import { scriptClicksRight } from '../script/reading';
import { notify } from '../../notifications';
import type { Question } from './question';

export interface Asker {
  userId: number;
  tokenId: number | null;
}

export type Strategy = 'bank_ai' | 'bank' | 'ai';

export type AiOutcome =
  | { ok: true; answer: string[]; question: string; price: number; modelId: number; questionId: number | null }
  | { ok: false; outcome: 'miss' | 'error' | 'no_balance'; msg: string; modelId?: number | null };

/** Part 2's AI answerer, behind the bank. */
export interface AiAnswerer {
  answer(userId: number, q: Question): Promise<AiOutcome>;
  /** What answer() would say when no model is there to ask (without asking), else null. */
  unavailable?(strategy: Strategy): Promise<AiOutcome | null>;
}

/** One upstream bank's answer to a question (upstream/asker.ts). */
export interface UpstreamAnswer {
  id: number;
  name: string;
  /** Its place among the enabled upstreams (0 first): among answers that agree, the first place is named. */
  rank: number;
  /** In the caller's own option lines. */
  answer: string[];
  /** As the bank stores it (option texts, 正确/错误, blanks). */
  stored: string[];
  price: number;
}

/** The enabled upstream banks, asked on a miss before the AI. */
export interface UpstreamSource {
  /**
   * Every enabled upstream's answer that fits the question, each within its own timeout, each also told
   * to `onAnswer` as soon as it came (the latency budget may settle on the ones in by then, while the
   * rest still run: a late answer is still stored). Failures are the source's business.
   */
  ask(q: Question, onAnswer?: (a: UpstreamAnswer) => void): Promise<UpstreamAnswer[]>;
  /** Whether any upstream is enabled (so a miss is worth a look in the query log first). */
  enabled(): Promise<boolean>;
}

/** Where questions that found no answer go (the 未收录 queue, review/misses.ts). */
export interface MissSink {
  add(q: Question): void;
}

export interface UserPreferences {
  strategy: Strategy;
  minConfidence: number;
}

export type OcsResult = OcsQueryResult;

const fail = (msg: string): OcsResult => ({ code: 0, msg });

/** A balance that pays for fewer bank answers than this is low (its owner is told). */
export const LOW_BALANCE_ANSWERS = 10;

export interface OcsServiceDeps {
  db: Kysely<DB>;
  /** The in-memory bank: fuzzy candidates, and exact matches without a database round trip. */
  bank: BankIndexSync;
  hits?: HitCounter;
  /** Charges that arrive together share one statement and one commit. */
  batcher?: ChargeBatcher;
  settings: SettingsCache;
  strategyOf?: (userId: number) => Promise<Strategy>;
  /** The user's strategy and minimum confidence (strategyOf alone: no minimum). */
  preferencesOf?: (userId: number) => Promise<UserPreferences>;
  ai?: AiAnswerer;
  upstreams?: UpstreamSource;
  misses?: MissSink;
  /** Told the outcome and source of every answer run (metrics). */
  onOutcome?: CountQuery;
  /** Builds the per-token limiters (shared by every instance: server/plugins/limits.ts). */
  limiter: (spec: { keyPrefix: string; points: number; duration: number }) => RateLimiterAbstract;
  log?: { error(obj: object, msg: string): void };
}

export class TooFast extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too fast');
  }
}

/** What the search found, before it is charged. */
export interface Found {
  /** In the caller's own option lines. */
  answer: string[];
  /** The question as the bank (or the caller) words it. */
  question: string;
  source: string;
  confidence: number;
  price: number;
  /** The query log's outcome: ai for answers only the AI gave, bank otherwise (upstream banks too). */
  outcome: 'bank' | 'ai';
  metric: QuerySource;
  questionId: number | null;
  modelId: number | null;
  /** A bank answer read from memory: the row's version, which the charge checks. */
  version?: number;
}

type Unanswered = {
  ok: false;
  outcome: 'miss' | 'error' | 'no_balance';
  msg: string;
  modelId?: number | null;
  metric: QuerySource;
  /** An answer was found but is not given: not a question for the 未收录 queue. */
  found?: true;
};
type Resolution = { ok: true; found: Found } | Unanswered;

interface Cand extends Candidate {
  kind: 'bank' | 'upstream' | 'ai';
  question: string;
  price: number;
  questionId: number | null;
  modelId: number | null;
  version?: number;
  upstream?: UpstreamAnswer;
}

const TIMED_OUT = Symbol('timed out');

/** `work`, or TIMED_OUT once `deadline` (epoch ms) passed; `work` itself runs on either way. */
function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | typeof TIMED_OUT> {
  const ms = deadline - Date.now();
  if (ms <= 0) return Promise.resolve(TIMED_OUT);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
    timer.unref?.();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

const UNCLICKABLE =
  '该题选项过于相近，OCS 脚本可能选错或选不中，本次不作答、未扣费。可在门户「在线提问」中查看答案后手动作答';

export class OcsService {
  private limiter: BurstyRateLimiter | null = null;
  private limiterShape = '';
  private readonly inflight = new Map<string, Promise<OcsResult>>();
  private batchSeq = 0;
  ai: AiAnswerer | undefined;
  upstreams: UpstreamSource | undefined;
  preferencesOf: (userId: number) => Promise<UserPreferences>;

  constructor(private readonly deps: OcsServiceDeps) {
    this.ai = deps.ai;
    this.upstreams = deps.upstreams;
    const strategyOf = deps.strategyOf ?? (async () => 'bank_ai' as const);
    this.preferencesOf =
      deps.preferencesOf ?? (async (userId) => ({ strategy: await strategyOf(userId), minConfidence: 0 }));
  }

  /** Throws TooFast when the caller (a token, or a user on the ask page) is over the limit. */
  async checkRate(key: string, points = 1): Promise<void> {
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
      // A batch larger than the whole allowance still goes through when the allowance is untouched.
      await this.limiter.consume(key, Math.min(points, s.ratePerSecond));
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
    if (running) return running.then((r) => this.joined(r, q));
    const run = this.run(asker, q)
      .catch((err: unknown) => {
        this.deps.onOutcome?.('failed', 'none');
        throw err;
      })
      .finally(() => this.inflight.delete(flightKey));
    this.inflight.set(flightKey, run);
    return run;
  }

  /** The first run's result as a joiner gets it: free, in the joiner's own option lines. */
  private joined(r: OcsResult, q: Question): OcsResult {
    return r.code === 1 ? { ...r, answer: toOcsAnswer(inCallerText(splitOcsAnswer(r.answer), q)), cost: 0 } : r;
  }

  /**
   * A page of questions (invalid ones given as their Chinese message), answered in order: each as
   * answer() would, charged together in page order. Results in input order.
   */
  async answerMany(asker: Asker, items: Array<Question | string>): Promise<OcsResult[]> {
    const results: Array<OcsResult | undefined> = new Array(items.length);
    const group = (this.batchSeq = (this.batchSeq % 2_000_000_000) + 1);
    type Owner = { i: number; q: Question; settle: (r: OcsResult) => void; fail: (e: unknown) => void };
    const owners: Owner[] = [];
    const joiners: Array<{ i: number; q: Question; run: Promise<OcsResult> }> = [];
    items.forEach((q, i) => {
      if (typeof q === 'string') {
        this.deps.onOutcome?.('invalid', 'none');
        results[i] = fail(q);
        return;
      }
      const flightKey = `${asker.userId}:${q.key}`;
      const running = this.inflight.get(flightKey);
      if (running) {
        joiners.push({ i, q, run: running });
        return;
      }
      let settle!: (r: OcsResult) => void;
      let failRun!: (e: unknown) => void;
      const run = new Promise<OcsResult>((resolve, reject) => {
        settle = resolve;
        failRun = reject;
      });
      run.catch(() => undefined); // the batch itself reports the failure
      this.inflight.set(flightKey, run);
      void run.finally(() => this.inflight.delete(flightKey)).catch(() => undefined);
      owners.push({ i, q, settle, fail: failRun });
    });

    try {
      const settings = await this.deps.settings.get();
      const prefs = await this.preferencesOf(asker.userId);
      const deadline = Date.now() + settings.latencyBudgetSeconds * 1000;
      const resolved = await mapLimit(owners, 8, (o) => this.resolve(asker, o.q, settings, prefs, deadline, true));
      // A question the AI refused for the balance before any charge: the page ran out there.
      let shortAt = Infinity;
      owners.forEach((o, k) => {
        const r = resolved[k]!;
        if (!r.ok && r.outcome === 'no_balance') shortAt = Math.min(shortAt, o.i);
      });
      const toCharge = owners.flatMap((o, k) => {
        const r = resolved[k]!;
        return r.ok ? [{ o, found: r.found }] : [];
      });
      const charges = toCharge.length
        ? await chargeManyLabelled(
            this.deps.db,
            toCharge.map(({ o, found }) => this.chargeInput(asker, o.q, found, { group, refuse: o.i > shortAt })),
            this.deps.bank.exact,
          )
        : [];
      for (let k = 0; k < owners.length; k++) {
        const o = owners[k]!;
        const r = resolved[k]!;
        if (!r.ok) {
          const out = await this.unanswered(asker, o.q, r);
          results[o.i] = out;
          o.settle(out);
          continue;
        }
        const c = toCharge.findIndex((t) => t.o === o);
        let charged = charges[c]!;
        let found = r.found;
        if (charged.status === 'stale') {
          // The question changed since memory read it: look again in the database, in the same order rule.
          const again = await this.resolve(asker, o.q, settings, prefs, deadline, false);
          if (!again.ok) {
            const out = await this.unanswered(asker, o.q, again);
            results[o.i] = out;
            o.settle(out);
            continue;
          }
          found = again.found;
          charged = await chargeForAnswer(this.deps.db, this.chargeInput(asker, o.q, found, { refuse: shortAt < o.i }));
        }
        if (charged.status === 'no_balance') shortAt = Math.min(shortAt, o.i);
        await this.tellIfLow(asker.userId, settings.bankPrice, charged);
        const out = this.result(charged, found);
        results[o.i] = out;
        o.settle(out);
      }
    } catch (err) {
      this.deps.onOutcome?.('failed', 'none');
      for (const o of owners) o.fail(err);
      throw err;
    }
    for (const j of joiners) results[j.i] = this.joined(await j.run, j.q);
    return results as OcsResult[];
  }

  private charge(c: ChargeInput): Promise<ChargeResult> {
    return this.deps.batcher ? this.deps.batcher.charge(c) : chargeForAnswer(this.deps.db, c);
  }

  private chargeInput(asker: Asker, q: Question, f: Found, extra: Partial<ChargeInput> = {}): ChargeInput {
    return {
      userId: asker.userId,
      tokenId: asker.tokenId,
      price: f.price,
      key: q.key,
      title: q.title,
      type: q.type,
      outcome: f.outcome,
      questionId: f.questionId,
      modelId: f.modelId,
      answer: logAnswer(f.answer),
      ...(f.version !== undefined ? { version: f.version } : {}),
      source: f.source,
      confidence: f.confidence,
      ...extra,
    };
  }

  private async run(asker: Asker, q: Question): Promise<OcsResult> {
    const settings = await this.deps.settings.get();
    const prefs = await this.preferencesOf(asker.userId);
    const deadline = Date.now() + settings.latencyBudgetSeconds * 1000;
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await this.resolve(asker, q, settings, prefs, deadline, attempt === 0);
      if (!r.ok) return this.unanswered(asker, q, r);
      const charged = await this.charge(this.chargeInput(asker, q, r.found));
      if (charged.status === 'stale') continue;
      await this.tellIfLow(asker.userId, settings.bankPrice, charged);
      return this.result(charged, r.found);
    }
    throw new Error('a bank answer read from the database was refused as stale');
  }

  /** Logs and counts a question that got no answer; misses and failures go to the 未收录 queue. */
  private async unanswered(asker: Asker, q: Question, r: Unanswered): Promise<OcsResult> {
    this.deps.onOutcome?.(r.outcome, r.metric);
    if (r.outcome !== 'no_balance' && !r.found) this.deps.misses?.add(q);
    await logUnanswered(this.deps.db, {
      userId: asker.userId,
      tokenId: asker.tokenId,
      key: q.key,
      title: q.title,
      type: q.type,
      outcome: r.outcome,
      message: r.msg,
      modelId: r.modelId ?? null,
    });
    return fail(r.msg);
  }

  /**
   * Finds the answer without charging: the bank; when it has none the user accepts, the upstreams and
   * the AI, within the budget. Past the budget the search goes on in the background (what it finds is
   * stored for next time) and the caller is told "not found".
   */
  private async resolve(
    asker: Asker,
    q: Question,
    settings: OcsSettings,
    prefs: UserPreferences,
    deadline: number,
    fromMemory: boolean,
  ): Promise<Resolution> {
    const r = await this.find(asker, q, settings, prefs, deadline, fromMemory);
    // A script (a token's caller) clicks the options it reads in the answer: one it would click wrong, or
    // not at all, is not given and not charged. The ask page shows answers to people.
    if (r.ok && asker.tokenId !== null && !scriptClicksRight(q.type, r.found.answer, q.ownOptions)) {
      return { ok: false, outcome: 'miss', metric: 'none', found: true, msg: UNCLICKABLE };
    }
    return r;
  }

  private async find(
    asker: Asker,
    q: Question,
    settings: OcsSettings,
    prefs: UserPreferences,
    deadline: number,
    fromMemory: boolean,
  ): Promise<Resolution> {
    const cands: Cand[] = [];
    if (prefs.strategy !== 'ai') {
      const { db, bank } = this.deps;
      const m = await findInBank(db, bank.index, q, settings.fuzzyThreshold, {
        memory: bank,
        fromMemory,
        skipDisputed: settings.disputedMode === 'refuse',
      });
      if (m) {
        const c: Cand = {
          kind: 'bank',
          source: m.provenance,
          answer: m.answer,
          confidence: bankConfidence(m),
          question: m.question,
          price: settings.bankPrice,
          questionId: m.id,
          modelId: null,
          ...(m.version !== undefined ? { version: m.version } : {}),
        };
        // The common case: the bank is sure enough for this user. Nothing else is asked.
        if (c.confidence >= prefs.minConfidence) return { ok: true, found: this.found([c], c.confidence) };
        cands.push(c);
      }
    }
    const upstreamsOn = prefs.strategy !== 'ai' && !!this.upstreams && (await this.upstreams.enabled());
    const noAi = prefs.strategy === 'bank' || !this.ai ? null : ((await this.ai.unavailable?.(prefs.strategy)) ?? null);
    const aiOn = prefs.strategy !== 'bank' && !!this.ai && noAi === null;
    if (!upstreamsOn && !aiOn) {
      // Nobody else to ask (the common miss): no query-log look-up for a free repeat either.
      if (cands.length === 0 && noAi && !noAi.ok) return { ...noAi, metric: 'ai' };
      return this.settle(cands, q, prefs);
    }
    const work = this.search(asker, q, settings, prefs, cands);
    const r = await beforeDeadline(work, deadline);
    if (r !== TIMED_OUT) return r;
    work.catch((err: unknown) => this.deps.log?.error({ err }, 'ocs late answer failed'));
    // At the budget, the best of what the sources gave in time (the bank's, upstreams' that answered).
    if (cands.length > 0) {
      const inTime = this.settle([...cands], q, prefs);
      if (inTime.ok) return inTime;
    }
    return {
      ok: false,
      outcome: 'miss',
      metric: 'none',
      msg: `查询超时（超过 ${settings.latencyBudgetSeconds} 秒），未扣费。找到的答案会存入题库，稍后再查即可`,
    };
  }

  /**
   * Upstream banks, then the AI, then the vote; an upstream's winning answer is stored in the bank.
   * Candidates join `cands` as they come, so that what came before the deadline can still be settled.
   */
  private async search(
    asker: Asker,
    q: Question,
    settings: OcsSettings,
    prefs: UserPreferences,
    cands: Cand[],
  ): Promise<Resolution> {
    const { db } = this.deps;
    const useUpstreams = prefs.strategy !== 'ai' && this.upstreams && (await this.upstreams.enabled());
    const useAi = prefs.strategy !== 'bank' && this.ai;
    if (useUpstreams || useAi) {
      // The same question answered in the last 10 minutes: free again, without asking anyone — unless
      // its bank question was marked wrong since, or is 存疑 now and disputed answers are not given.
      const cached = await recentAnswer(db, asker.userId, q.key);
      const stillGiven = cached && !cached.wrong && !(cached.disputed && settings.disputedMode === 'refuse');
      // A disputed answer counts as the bank counts it (bankConfidence): half as sure.
      const confidence = cached ? (cached.confidence ?? 1) * (cached.disputed ? 0.5 : 1) : 0;
      if (cached && stillGiven && confidence >= prefs.minConfidence) {
        const c: Cand = {
          kind: cached.source?.startsWith('upstream:') ? 'upstream' : cached.outcome === 'ai' ? 'ai' : 'bank',
          source: cached.source ?? (cached.outcome === 'ai' ? 'ai' : 'import'),
          answer: inCallerText(answerFromLog(cached.answer), q),
          confidence: Math.round(confidence * 1000) / 1000,
          question: q.title,
          price: 0,
          questionId: cached.question_id,
          modelId: null,
        };
        return {
          ok: true,
          found: { ...this.found([c], c.confidence), outcome: cached.outcome === 'ai' ? 'ai' : 'bank' },
        };
      }
    }
    if (useUpstreams) {
      await this.upstreams!.ask(q, (u) => {
        // In the upstreams' order, whichever answered sooner.
        const after = cands.findIndex((c) => c.kind === 'upstream' && c.upstream!.rank > u.rank);
        cands.splice(after < 0 ? cands.length : after, 0, {
          kind: 'upstream',
          source: `upstream:${u.name}`,
          answer: u.answer,
          confidence: 0.8,
          question: q.title,
          price: u.price,
          questionId: null,
          modelId: null,
          upstream: u,
        });
      });
    }
    const hasOptions = q.options.length > 0;
    const sofar = vote(cands, hasOptions);
    let aiFailure: Unanswered | null = null;
    if (useAi && (!sofar || sofar.confidence < prefs.minConfidence || prefs.strategy === 'ai')) {
      const ai = await this.ai!.answer(asker.userId, q);
      if (ai.ok) {
        cands.push({
          kind: 'ai',
          source: 'ai',
          answer: ai.answer,
          confidence: 0.7,
          question: ai.question,
          price: ai.price,
          questionId: ai.questionId,
          modelId: ai.modelId,
        });
      } else {
        aiFailure = { ok: false, outcome: ai.outcome, msg: ai.msg, modelId: ai.modelId ?? null, metric: 'ai' };
      }
    }
    if (cands.length === 0 && aiFailure) return aiFailure;
    const settled = this.settle(cands, q, prefs);
    if (settled.ok && settled.found.metric === 'upstream') {
      const winner = cands.find((c) => c.kind === 'upstream' && c.answer === settled.found.answer)?.upstream;
      if (winner) {
        settled.found.questionId = await storeMachineAnswer(
          db,
          this.deps.bank.index,
          q,
          winner.stored,
          `upstream:${winner.name}`,
        ).then(
          (r) => r.id,
          (err: unknown) => {
            this.deps.log?.error({ err }, 'ocs upstream answer not stored');
            return null;
          },
        );
      }
    }
    return settled;
  }

  /** The vote over what was found: not found, too unsure for this user, or the answer. */
  private settle(cands: Cand[], q: Question, prefs: UserPreferences): Resolution {
    const verdict = vote(cands, q.options.length > 0);
    if (!verdict) {
      return {
        ok: false,
        outcome: 'miss',
        metric: 'none',
        msg: prefs.strategy === 'ai' ? '当前没有可用的 AI 模型' : '题库中未找到该题',
      };
    }
    if (verdict.confidence < prefs.minConfidence) {
      return {
        ok: false,
        outcome: 'miss',
        metric: 'none',
        msg: `找到的答案置信度 ${pct(verdict.confidence)}，低于你设置的最低置信度 ${pct(prefs.minConfidence)}，按未找到处理，未扣费`,
      };
    }
    return { ok: true, found: this.found(verdict.agreeing, verdict.confidence) };
  }

  /**
   * What the agreeing sources give: the bank's row when it is among them, else the first upstream in
   * order, else the AI; the highest price among them (every one of them was asked for this answer).
   */
  private found(agreeing: Cand[], confidence: number): Found {
    const rep = agreeing.find((c) => c.kind === 'bank') ?? agreeing.find((c) => c.kind === 'upstream') ?? agreeing[0]!;
    const ai = agreeing.find((c) => c.kind === 'ai');
    return {
      answer: rep.answer,
      question: rep.question,
      source: rep.source,
      confidence,
      price: Math.max(...agreeing.map((c) => c.price)),
      outcome: rep.kind === 'ai' ? 'ai' : 'bank',
      metric: rep.kind,
      questionId: rep.questionId,
      modelId: ai?.modelId ?? null,
      ...(rep.version !== undefined ? { version: rep.version } : {}),
    };
  }

  /**
   * The debit that takes a balance below LOW_BALANCE_ANSWERS bank answers tells its owner (once while
   * that notice is unread); the charges after it do not, so this costs a statement only at the crossing.
   * After the charge committed: failing to tell must not fail an answer that was paid for.
   */
  private async tellIfLow(userId: number, bankPrice: number, c: ChargeResult): Promise<void> {
    if (c.status !== 'charged' || bankPrice === 0) return;
    const line = LOW_BALANCE_ANSWERS * bankPrice;
    if (c.balance >= line || c.balance + c.cost < line) return;
    await notify(
      this.deps.db,
      userId,
      {
        kind: 'ocs.balance.low',
        title: `OCS 积分余额不足 ${LOW_BALANCE_ANSWERS} 次题库答题`,
        body: `当前余额 ${c.balance} 积分（题库答题每题 ${bankPrice} 积分）。可到「每日领取与兑换」领取积分或使用兑换码`,
        link: '/OCS/freeChange',
      },
      { unlessUnread: true },
    ).catch((err) => this.deps.log?.error({ err }, 'ocs low-balance notification failed'));
  }

  private result(c: ChargeResult, f: Found): OcsResult {
    if (c.status === 'stale') throw new Error('an answer without a question version was refused as stale');
    this.deps.onOutcome?.(c.status === 'no_balance' ? 'no_balance' : 'answered', f.metric);
    if (c.status !== 'no_balance' && f.metric === 'bank' && f.questionId !== null) this.deps.hits?.add(f.questionId);
    if (c.status === 'no_balance') {
      return fail(`余额不足：当前 ${c.balance} 积分，本题需要 ${f.price} 积分。请到「免费领取」领取积分或使用兑换码`);
    }
    return {
      code: 1,
      question: f.question,
      answer: toOcsAnswer(f.answer),
      source: f.source,
      confidence: f.confidence,
      cost: c.cost,
      balance: c.balance,
      queryId: c.queryId,
    };
  }
}

/** Runs `fn` over `items` with at most `limit` at a time; results in input order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
