/**
 * OCS service settings (price, free amount, fuzzy threshold, rate limit, latency budget, how reports
 * and disputed answers are handled): their schema and defaults,
 * storage as one row per key, the short per-instance cache the hot path reads through, and the
 * administrators' read and audited update (every change recorded with its before and after).
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { OcsSettingsBody } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { lockFor } from '../../../db/locks';
import { diff, recordAudit, type Actor } from '../../audit';

export const OcsSettings = z.object({
  /** Points per answer from the bank. */
  bankPrice: z.number().int().min(0).max(1_000_000),
  /** Points of the daily free claim. */
  freeDaily: z.number().int().min(0).max(1_000_000),
  /** pg_trgm similarity a fuzzy candidate must reach (besides the difference guard). */
  fuzzyThreshold: z.number().min(0.3).max(1),
  /** Queries per second per token, and the burst allowed on top. */
  ratePerSecond: z.number().int().min(1).max(1000),
  rateBurst: z.number().int().min(1).max(10_000),
  /** Seconds an answer may take, however it is found; past it "not found", free (late results are kept). */
  latencyBudgetSeconds: z.number().int().min(1).max(25),
  /** 存疑 answers: answered with lower confidence, or not answered until reviewed. */
  disputedMode: z.enum(['lower', 'refuse']),
  /** Report weight (independent users, each 1 until their reports are rejected) that marks an answer 存疑. */
  disputeThreshold: z.number().min(1).max(20),
  /** Reports one user may make per day. */
  reportDailyLimit: z.number().int().min(1).max(1000),
});
export type OcsSettings = z.infer<typeof OcsSettings>;

// The contract's settings body (with Chinese messages) and the server's schema must stay one shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameSettings: Same<OcsSettingsBody, OcsSettings> = true;
void _sameSettings;

export const DEFAULT_SETTINGS: OcsSettings = {
  bankPrice: 1,
  freeDaily: 10,
  fuzzyThreshold: 0.5,
  ratePerSecond: 10,
  rateBurst: 20,
  latencyBudgetSeconds: 15,
  disputedMode: 'lower',
  disputeThreshold: 3,
  reportDailyLimit: 20,
};

export async function readSettings(db: Kysely<DB>): Promise<OcsSettings> {
  const rows = await db.selectFrom('ocs_settings').select(['key', 'value']).execute();
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const r of rows) if (r.key in DEFAULT_SETTINGS) merged[r.key] = r.value;
  const parsed = OcsSettings.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

export async function writeSettings(db: Kysely<DB>, patch: Partial<OcsSettings>): Promise<void> {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    await db
      .insertInto('ocs_settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: new Date() }))
      .execute();
  }
}

/** Settings as this instance last read them; other instances' changes show within `ttlMs`. */
export class SettingsCache {
  private value: OcsSettings | null = null;
  private readAt = 0;
  constructor(
    private readonly db: Kysely<DB>,
    private readonly ttlMs = 5_000,
  ) {}

  async get(): Promise<OcsSettings> {
    if (!this.value || Date.now() - this.readAt > this.ttlMs) {
      this.value = await readSettings(this.db);
      this.readAt = Date.now();
    }
    return this.value;
  }

  invalidate(): void {
    this.value = null;
  }
}

export async function getOcsSettings(db: Kysely<DB>): Promise<OcsSettings> {
  return readSettings(db);
}

/**
 * Writes the settings and the audit row together; returns what changed (empty when nothing did).
 * Values still on their defaults are stored too, unaudited (none changed): a save is the administrator
 * choosing them, which the setup checklist's 单价已设置 reads.
 */
export async function updateOcsSettings(
  db: Kysely<DB>,
  actor: Actor,
  next: OcsSettings,
): Promise<Record<string, unknown>> {
  return db.transaction().execute(async (trx) => {
    // Serialises concurrent saves so each audit row's "before" is what that save replaced.
    await lockFor(trx, 'ocs-settings');
    const before = await readSettings(trx);
    const d = diff(before, next);
    const stored = new Set((await trx.selectFrom('ocs_settings').select('key').execute()).map((r) => r.key));
    const unstored = Object.fromEntries(Object.entries(next).filter(([k]) => !stored.has(k) && !(k in d.after)));
    await writeSettings(trx, unstored);
    if (Object.keys(d.after).length === 0) return {};
    await writeSettings(trx, d.after as Partial<OcsSettings>);
    await recordAudit(trx, actor, {
      action: 'ocs.settings.update',
      targetType: 'ocs_settings',
      targetName: 'OCS 服务设置',
      ...d,
    });
    return d.after;
  });
}
