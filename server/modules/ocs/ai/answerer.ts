/**
 * The AI behind the bank (OcsService's AiAnswerer): picks the user's model, refuses before paying a
 * provider when the user's daily AI cap or balance would not cover the answer, asks the model, parses
 * the reply and keeps the answer in the bank (ai, unverified) so the next identical question is a bank
 * hit. Identical questions in flight share one provider call, whoever asks. Charging is OcsService's.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { SecretBox } from '../../../lib/secretbox';
import type { BankIndexSync } from '../bank/index-sync';
import { cleanTitle } from '../bank/normalize';
import { storeMachineAnswer } from '../bank/store';
import { formatAnswer, inCallerText, type StoredAnswer } from '../bank/answer';
import type { Question } from '../query/question';
import type { AiAnswerer, AiOutcome } from '../query/service';
import { getBalance } from '../wallet/balance';
import { callModel } from './client';
import { parseAiReply } from './parse';
import { todayAiSpent, type PreferencesCache } from './preferences';
import { anyModelUsable, callableModel, type CallableModel } from './providers';
import { DEFAULT_PROMPT_TEMPLATES, renderPrompt } from '@contract';

export interface AnswererDeps {
  db: Kysely<DB>;
  secrets: SecretBox;
  bank: BankIndexSync;
  preferences: PreferencesCache;
  log: FastifyBaseLogger;
  /** PORTAL_TZ: what "today" means for the daily cap. */
  tz: string;
  /** ADMIN_URL_ALLOWLIST: providers that may be on an inward address. */
  allowlist: readonly string[];
}

type Flight =
  { ok: true; answer: string[]; stored: StoredAnswer | null; questionId: number | null } | { ok: false; msg: string };

const NO_MODEL = '当前没有可用的 AI 模型';
const noModel = (strategy: string): AiOutcome => ({
  ok: false,
  outcome: 'miss',
  msg: strategy === 'ai' ? NO_MODEL : `题库中未找到该题，且${NO_MODEL}`,
});

export class OcsAiAnswerer implements AiAnswerer {
  private readonly inflight = new Map<string, Promise<Flight>>();
  /** Provider calls started, and callers that waited on a call already under way. */
  readonly stats = { calls: 0, joined: 0 };

  private readonly usable: () => Promise<boolean>;

  constructor(private readonly deps: AnswererDeps) {
    this.usable = anyModelUsable(deps.db);
  }

  async unavailable(strategy: string): Promise<AiOutcome | null> {
    return (await this.usable()) ? null : noModel(strategy);
  }

  async answer(userId: number, q: Question): Promise<AiOutcome> {
    const { db, tz } = this.deps;
    const prefs = await this.deps.preferences.get(userId);
    let model: CallableModel | null;
    try {
      model = await this.pickModel(prefs.modelId);
    } catch (err) {
      // Most likely PORTAL_SECRET changed since the key was stored.
      this.deps.log.error({ err: { message: (err as Error).message } }, 'ocs ai model unusable');
      return { ok: false, outcome: 'error', msg: 'AI 服务配置有误，请联系管理员（未扣费）' };
    }
    if (!model) return noModel(prefs.strategy);
    const modelId = model.id;
    if (prefs.dailyAiCap !== null) {
      const spent = await todayAiSpent(db, userId, tz);
      if (spent + model.price > prefs.dailyAiCap) {
        const msg = `今日 AI 消费已达上限（已用 ${spent} 积分，上限 ${prefs.dailyAiCap} 积分，本题需要 ${model.price} 积分），未扣费。可在「AI 模型」偏好中调整每日上限`;
        return { ok: false, outcome: 'error', msg, modelId };
      }
    }
    if (model.price > 0) {
      const balance = await getBalance(db, userId);
      if (balance < model.price) {
        const msg = `余额不足：当前 ${balance} 积分，本题需要 ${model.price} 积分。请到「免费领取」领取积分或使用兑换码`;
        return { ok: false, outcome: 'no_balance', msg, modelId };
      }
    }

    const r = await this.flight(model, q, prefs.promptTemplate);
    if (!r.ok) return { ok: false, outcome: 'error', msg: r.msg, modelId };
    // A joiner's options may be ordered or spelled differently from the first caller's; either way the
    // answer is given in this caller's own option texts.
    const answer =
      (r.stored && formatAnswer(r.stored, q.type, q.options, q.ownOptions, q.optionKeys)) ?? inCallerText(r.answer, q);
    return {
      ok: true,
      answer,
      question: cleanTitle(q.title) || q.title,
      price: model.price,
      modelId,
      questionId: r.questionId,
    };
  }

  /** The user's model while it is enabled, else the cheapest enabled one. */
  private async pickModel(modelId: number | null): Promise<CallableModel | null> {
    const { db, secrets, allowlist } = this.deps;
    const chosen = modelId === null ? null : await callableModel(db, secrets, { id: modelId }, allowlist);
    return chosen?.enabled ? chosen : callableModel(db, secrets, 'cheapest', allowlist);
  }

  private flight(model: CallableModel, q: Question, template: string | null): Promise<Flight> {
    const key = `${q.key}:${model.id}`;
    const running = this.inflight.get(key);
    if (running) {
      this.stats.joined++;
      return running;
    }
    const run = this.call(model, q, template).finally(() => this.inflight.delete(key));
    this.inflight.set(key, run);
    return run;
  }

  private async call(model: CallableModel, q: Question, template: string | null): Promise<Flight> {
    this.stats.calls++;
    const prompt = renderPrompt(template ?? DEFAULT_PROMPT_TEMPLATES[q.type], q);
    const reply = await callModel(model.config, prompt);
    if (!reply.ok) {
      this.warn(model, reply.kind, reply.status ?? null, reply.latencyMs);
      return { ok: false, msg: reply.message };
    }
    const parsed = parseAiReply(reply.text, q);
    if ('error' in parsed) {
      this.warn(model, 'unparseable', null, reply.latencyMs);
      return { ok: false, msg: `${parsed.error}，未扣费` };
    }
    try {
      const kept = await this.store(q, parsed.answer);
      return { ok: true, answer: parsed.answer, stored: kept.stored, questionId: kept.questionId };
    } catch (err) {
      // The answer is good even if the bank could not keep it.
      this.deps.log.error({ err }, 'ocs ai answer not stored');
      return { ok: true, answer: parsed.answer, stored: null, questionId: null };
    }
  }

  private warn(model: CallableModel, kind: string, status: number | null, latencyMs: number): void {
    this.deps.log.warn(
      { provider: model.providerName, model: model.config.model, kind, status, latencyMs },
      'ocs ai call failed',
    );
  }

  /** Into the bank as ai/unverified (bank/store.ts: never over people's answers). */
  private async store(
    q: Question,
    answer: string[],
  ): Promise<{ stored: StoredAnswer | null; questionId: number | null }> {
    const { id, prepared } = await storeMachineAnswer(this.deps.db, this.deps.bank.index, q, answer, 'ai');
    if (!prepared) return { stored: null, questionId: null };
    return { stored: { type: prepared.type, options: prepared.options, answer: prepared.answer }, questionId: id };
  }
}
