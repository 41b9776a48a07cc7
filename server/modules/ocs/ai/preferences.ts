/**
 * Each user's AI preferences: prompt template (null = the default of each question type), model
 * (null = the cheapest enabled one), answer strategy and daily AI cap. Read on the answer path through
 * a short per-instance cache that this instance's own writes invalidate.
 */
import { sql, type Kysely } from 'kysely';
import type { OcsPreferences, OcsPreferencesBody, OcsStrategy } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { badRequest } from '../../../errors';
import { validateTemplate } from '@contract';

export interface StoredPreferences {
  promptTemplate: string | null;
  modelId: number | null;
  strategy: OcsStrategy;
  dailyAiCap: number | null;
  /** Answers below this confidence are "not found", free (0: every answer is accepted). */
  minConfidence: number;
}

export const DEFAULT_PREFERENCES: StoredPreferences = {
  promptTemplate: null,
  modelId: null,
  strategy: 'bank_ai',
  dailyAiCap: null,
  minConfidence: 0,
};

export async function readPreferences(db: Kysely<DB>, userId: number): Promise<StoredPreferences> {
  const r = await db
    .selectFrom('ocs_preferences')
    .select(['prompt_template', 'model_id', 'strategy', 'daily_ai_cap', 'min_confidence'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!r) return DEFAULT_PREFERENCES;
  return {
    promptTemplate: r.prompt_template,
    modelId: r.model_id,
    strategy: r.strategy,
    dailyAiCap: r.daily_ai_cap,
    minConfidence: Number(r.min_confidence),
  };
}

/** Points the user spent on AI answers today, days in `tz`. */
export async function todayAiSpent(db: Kysely<DB>, userId: number, tz: string): Promise<number> {
  const r = await db
    .selectFrom('ocs_queries')
    .select(sql<number>`coalesce(sum(cost), 0)`.as('spent'))
    .where('user_id', '=', userId)
    .where('outcome', '=', 'ai')
    .where('created_at', '>=', sql<Date>`date_trunc('day', now() at time zone ${tz}) at time zone ${tz}`)
    .executeTakeFirstOrThrow();
  return Number(r.spent);
}

export async function getPreferences(db: Kysely<DB>, userId: number, tz: string): Promise<OcsPreferences> {
  const [p, spent] = await Promise.all([readPreferences(db, userId), todayAiSpent(db, userId, tz)]);
  return { ...p, todayAiSpent: spent };
}

export async function setPreferences(db: Kysely<DB>, userId: number, body: OcsPreferencesBody): Promise<void> {
  const set: Partial<StoredPreferences> = {};
  if (body.promptTemplate !== undefined) {
    // An empty editor means "use the defaults", not an invalid template.
    const t = body.promptTemplate === null || body.promptTemplate.trim() === '' ? null : body.promptTemplate;
    const problem = t === null ? null : validateTemplate(t);
    if (problem) throw badRequest(problem, { promptTemplate: [problem] });
    set.promptTemplate = t;
  }
  if (body.modelId !== undefined) {
    if (body.modelId !== null) {
      const m = await db.selectFrom('ocs_models').select('enabled').where('id', '=', body.modelId).executeTakeFirst();
      if (!m?.enabled) throw badRequest('所选模型不存在或已停用', { modelId: ['所选模型不存在或已停用'] });
    }
    set.modelId = body.modelId;
  }
  if (body.strategy !== undefined) set.strategy = body.strategy;
  if (body.dailyAiCap !== undefined) set.dailyAiCap = body.dailyAiCap;
  // Kept to a thousandth: a finer value means nothing, and a tiny one (5e-324) underflows the `real`
  // column (a 500 the property test found).
  if (body.minConfidence !== undefined) set.minConfidence = Math.round(body.minConfidence * 1000) / 1000;
  const row = {
    ...(set.promptTemplate !== undefined ? { prompt_template: set.promptTemplate } : {}),
    ...(set.modelId !== undefined ? { model_id: set.modelId } : {}),
    ...(set.strategy !== undefined ? { strategy: set.strategy } : {}),
    ...(set.dailyAiCap !== undefined ? { daily_ai_cap: set.dailyAiCap } : {}),
    ...(set.minConfidence !== undefined ? { min_confidence: set.minConfidence } : {}),
  };
  await db
    .insertInto('ocs_preferences')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...row, updated_at: sql`now()` }))
    .execute();
}

const MAX_CACHED = 10_000;

/** Preferences as this instance last read them; another instance's writes show within `ttlMs`. */
export class PreferencesCache {
  private readonly entries = new Map<number, { value: StoredPreferences; at: number }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly ttlMs = 5_000,
  ) {}

  async get(userId: number): Promise<StoredPreferences> {
    const hit = this.entries.get(userId);
    if (hit && Date.now() - hit.at <= this.ttlMs) return hit.value;
    const value = await readPreferences(this.db, userId);
    // Crude bound: dropping everything costs one read per active user, never a wrong answer.
    if (this.entries.size >= MAX_CACHED) this.entries.clear();
    this.entries.set(userId, { value, at: Date.now() });
    return value;
  }

  async strategyOf(userId: number): Promise<OcsStrategy> {
    return (await this.get(userId)).strategy;
  }

  invalidate(userId: number): void {
    this.entries.delete(userId);
  }
}
