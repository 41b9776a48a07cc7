/**
 * What PostgreSQL's autovacuum does, for the embedded database, which has none (PGlite runs one backend
 * and no background workers): every DB_MAINTENANCE_MS the statistics of each table are read, and a
 * table that changed enough since its last VACUUM or ANALYZE gets `vacuum (analyze)` or `analyze`, on
 * the thresholds autovacuum uses (read from the database's own settings, so they are the same numbers).
 *
 * Why it matters (measured): without fresh statistics a plan made when a table was small stays in use.
 * On a new installation the charge function (ocs_charge_many, planned once per process) read the whole
 * query log for the 10-minute free repeat: its cost grew with every query answered, 5.5 → 18.4 ms per
 * batch of 10 over the first 10,000 queries, until a restart. ANALYZE invalidates such plans, and the
 * next call plans again against the table as it is (1.9–2.1 ms per batch after it). VACUUM also gives
 * back the space of dead rows (every charge leaves a dead wallet row) and freezes old rows before
 * transaction ids wrap around.
 *
 * Each statement holds the database for its duration (one backend): VACUUM only visits the pages
 * changed since the last one (the visibility map), so a run is short when runs are frequent.
 * On PostgreSQL (DATABASE_URL) nothing is done here: its autovacuum does this.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema';

export interface TableActivity {
  schema: string;
  table: string;
  /** Rows as of the last VACUUM or ANALYZE (pg_class.reltuples; 0 when never counted). */
  rows: number;
  deadRows: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
  /** Transactions since the oldest unfrozen row id of the table. */
  xidAge: number;
}

/** autovacuum's settings, as the database has them. */
export interface Thresholds {
  vacuumThreshold: number;
  vacuumScale: number;
  insertThreshold: number;
  insertScale: number;
  analyzeThreshold: number;
  analyzeScale: number;
  freezeMaxAge: number;
}

export type Work = 'vacuum' | 'analyze' | 'vacuum-analyze';

/** What autovacuum would do to this table now, or null. */
export function workFor(t: TableActivity, s: Thresholds): Work | null {
  const vacuum =
    t.deadRows > s.vacuumThreshold + s.vacuumScale * t.rows ||
    (s.insertThreshold >= 0 && t.insertedSinceVacuum > s.insertThreshold + s.insertScale * t.rows) ||
    t.xidAge > s.freezeMaxAge;
  const analyze = t.changedSinceAnalyze > s.analyzeThreshold + s.analyzeScale * t.rows;
  if (vacuum && analyze) return 'vacuum-analyze';
  return vacuum ? 'vacuum' : analyze ? 'analyze' : null;
}

export async function readThresholds(db: Kysely<DB>): Promise<Thresholds> {
  const r = await sql<Record<keyof Thresholds, string>>`select
      current_setting('autovacuum_vacuum_threshold') as "vacuumThreshold",
      current_setting('autovacuum_vacuum_scale_factor') as "vacuumScale",
      current_setting('autovacuum_vacuum_insert_threshold') as "insertThreshold",
      current_setting('autovacuum_vacuum_insert_scale_factor') as "insertScale",
      current_setting('autovacuum_analyze_threshold') as "analyzeThreshold",
      current_setting('autovacuum_analyze_scale_factor') as "analyzeScale",
      current_setting('autovacuum_freeze_max_age') as "freezeMaxAge"`.execute(db);
  const row = r.rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as Thresholds;
}

export async function readActivity(db: Kysely<DB>): Promise<TableActivity[]> {
  const r = await sql<Record<keyof TableActivity, string | number>>`
    select s.schemaname as schema, s.relname as "table", greatest(c.reltuples, 0) as rows,
           s.n_dead_tup as "deadRows", s.n_ins_since_vacuum as "insertedSinceVacuum",
           s.n_mod_since_analyze as "changedSinceAnalyze", age(c.relfrozenxid) as "xidAge"
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
     order by s.schemaname, s.relname`.execute(db);
  return r.rows.map((x) => ({
    schema: String(x.schema),
    table: String(x.table),
    rows: Number(x.rows),
    deadRows: Number(x.deadRows),
    insertedSinceVacuum: Number(x.insertedSinceVacuum),
    changedSinceAnalyze: Number(x.changedSinceAnalyze),
    xidAge: Number(x.xidAge),
  }));
}

export interface Done {
  table: string;
  work: Work;
  ms: number;
}

/**
 * Tables of at least this many rows are analyzed from a sample of 300 × LARGE_TABLE_STATISTICS rows
 * instead of 300 × default_statistics_target (100): the statement holds the whole embedded database,
 * and on the bench's 850,000-row query log ANALYZE took 0.6–1.1 s with the default against 0.13 s with
 * 20, while the plans that matter there go by indexes. Autovacuum on PostgreSQL works in the background.
 */
export const LARGE_TABLE_ROWS = 100_000;
export const LARGE_TABLE_STATISTICS = 20;

/**
 * The longest the work on a large table waits for a quiet moment. Its statements hold the whole embedded
 * database for up to a second or more (bench: `vacuum ocs_queries` 0.55–0.83 s, `analyze` 0.3–1.4 s on
 * a million-row query log), which a burst of queries feels as a stall of every answer; outside a burst
 * nobody waits. A table whose transaction ids near wraparound never waits.
 */
export const MAX_DEFER_MS = 10 * 60_000;

export interface MaintainOptions {
  /** True while the database is busy serving (the caller's measure): large tables' work waits. */
  busy?: () => boolean;
  /** Since when each large table's work has been waiting, by table (the caller keeps it between rounds). */
  waiting?: Map<string, number>;
  now?: () => number;
}

/**
 * One round: reads every table's activity and does what is due, one table at a time. The work on a
 * table of LARGE_TABLE_ROWS or more waits while `busy()`, for at most MAX_DEFER_MS.
 */
export async function maintain(db: Kysely<DB>, opts: MaintainOptions = {}): Promise<Done[]> {
  const thresholds = await readThresholds(db);
  const now = opts.now ?? Date.now;
  const waiting = opts.waiting ?? new Map<string, number>();
  const done: Done[] = [];
  for (const t of await readActivity(db)) {
    const work = workFor(t, thresholds);
    const name = `${t.schema}.${t.table}`;
    if (!work) {
      waiting.delete(name);
      continue;
    }
    const large = t.rows >= LARGE_TABLE_ROWS;
    if (large && t.xidAge <= thresholds.freezeMaxAge && opts.busy?.()) {
      const since = waiting.get(name) ?? now();
      waiting.set(name, since);
      if (now() - since < MAX_DEFER_MS) continue;
    }
    waiting.delete(name);
    const target = sql.id(t.schema, t.table);
    const started = performance.now();
    // The smaller sample for this ANALYZE only (set_config local to its transaction).
    const analyzeLarge = () =>
      db.transaction().execute(async (trx) => {
        await sql`select set_config('default_statistics_target', ${String(LARGE_TABLE_STATISTICS)}, true)`.execute(trx);
        await sql`analyze ${target}`.execute(trx);
      });
    if (work === 'analyze') await (large ? analyzeLarge() : sql`analyze ${target}`.execute(db));
    else if (work === 'vacuum') await sql`vacuum ${target}`.execute(db);
    else if (large) {
      await sql`vacuum ${target}`.execute(db);
      await analyzeLarge();
    } else await sql`vacuum (analyze) ${target}`.execute(db);
    done.push({ table: name, work, ms: Math.round(performance.now() - started) });
  }
  return done;
}
