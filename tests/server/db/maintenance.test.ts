/**
 * The embedded database's autovacuum (server/db/maintenance.ts): autovacuum's thresholds, and on a real
 * PGlite the case that made it necessary — a plan made while the query log was empty kept reading the
 * whole log at every charge, until ANALYZE made the database plan again.
 */
import { sql } from 'kysely';
import {
  LARGE_TABLE_ROWS,
  LARGE_TABLE_STATISTICS,
  MAX_DEFER_MS,
  maintain,
  readActivity,
  readThresholds,
  workFor,
  type TableActivity,
  type Thresholds,
} from '../../../server/db/maintenance';
import { poolStatsOf } from '../../../server/db/pool-stats';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { chargeMany, type ChargeInput } from '../../../server/modules/ocs/wallet/charge';
import { createUser } from '../../../server/modules/user/service';
import { openTestDatabase, pgliteOnly, startTestApp, testConfig, type TestDatabase } from '../helpers';

/** PostgreSQL's defaults. */
const defaults: Thresholds = {
  vacuumThreshold: 50,
  vacuumScale: 0.2,
  insertThreshold: 1000,
  insertScale: 0.2,
  analyzeThreshold: 50,
  analyzeScale: 0.1,
  freezeMaxAge: 200_000_000,
};

const quiet: TableActivity = {
  schema: 'public',
  table: 't',
  rows: 10_000,
  deadRows: 0,
  insertedSinceVacuum: 0,
  changedSinceAnalyze: 0,
  xidAge: 1_000,
};

describe('workFor: autovacuum’s rules', () => {
  it.each<[string, Partial<TableActivity>, string | null]>([
    ['nothing changed', {}, null],
    ['changes just under the analyze threshold (50 + 10 %)', { changedSinceAnalyze: 1_050 }, null],
    ['changes over it', { changedSinceAnalyze: 1_051 }, 'analyze'],
    ['dead rows over 50 + 20 %', { deadRows: 2_051 }, 'vacuum'],
    ['dead rows just under', { deadRows: 2_050 }, null],
    ['inserts over 1000 + 20 %', { insertedSinceVacuum: 3_001 }, 'vacuum'],
    ['old unfrozen rows', { xidAge: 200_000_001 }, 'vacuum'],
    ['inserts that also need statistics', { insertedSinceVacuum: 5_000, changedSinceAnalyze: 5_000 }, 'vacuum-analyze'],
    ['an empty table’s first 51 rows', { rows: 0, changedSinceAnalyze: 51 }, 'analyze'],
  ])('%s', (_name, change, expected) => {
    expect(workFor({ ...quiet, ...change }, defaults)).toBe(expected);
  });

  it('an insert threshold of -1 turns insert-driven vacuums off, as in PostgreSQL', () => {
    expect(workFor({ ...quiet, insertedSinceVacuum: 1e9 }, { ...defaults, insertThreshold: -1 })).toBeNull();
  });
});

pgliteOnly('maintain() on the embedded database', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(() => database.close());

  it('reads autovacuum’s settings from the database', async () => {
    expect(await readThresholds(database.db)).toEqual(defaults);
  });

  it('analyzes a query log that grew, once; a charge never reads the whole log, even planned on an empty one', async () => {
    const db = database.db;
    const user = await createUser(db, { username: 'maint', password: 'maint-password-123' });
    await credit(db, user.id, 'topup', 1_000_000, 'test');
    let k = 0;
    // Keys repeat, as a user's questions do: each charge looks for a free repeat in the log.
    const batch = (n: number): ChargeInput[] =>
      Array.from({ length: n }, () => ({
        userId: user.id,
        tokenId: 1,
        price: 1,
        key: `key-${k++ % 500}`,
        title: `question ${k}`,
        type: 'single' as const,
        outcome: 'bank' as const,
        questionId: null,
        modelId: null,
        answer: 'A',
      }));
    // Rows of the query log read by sequential scans since the last look.
    let lastRead = 0;
    const logRowsScanned = async () => {
      await flushStats(db);
      await sql`select pg_stat_clear_snapshot()`.execute(db);
      const now = Number(
        (
          await sql<{
            n: string;
          }>`select seq_tup_read as n from pg_stat_user_tables where relname = 'ocs_queries'`.execute(db)
        ).rows[0]!.n,
      );
      const read = now - lastRead;
      lastRead = now;
      return read;
    };
    // The first call plans the charge while the log is empty; then the log grows to 5,000 rows.
    await chargeMany(db, batch(1));
    for (let i = 0; i < 50; i++) await chargeMany(db, batch(100));
    await logRowsScanned();
    await chargeMany(db, batch(10));
    // Planned on an empty table, the free-repeat lookup still probes the index (migration 0016; before
    // it, this plan read all 5,000 rows of the log for every charge until the next ANALYZE).
    expect(await logRowsScanned()).toBe(0);

    const done = await maintain(db);
    expect(done.map((d) => d.table)).toContain('public.ocs_queries');
    const queries = (await readActivity(db)).find((t) => t.table === 'ocs_queries')!;
    expect(queries.changedSinceAnalyze).toBe(0);

    await chargeMany(db, batch(10));
    expect(await logRowsScanned()).toBe(0);
    // Nothing changed enough since: the next round does nothing to the log.
    expect((await maintain(db)).map((d) => d.table)).not.toContain('public.ocs_queries');
  });

  it('analyzes a large table from a smaller sample, for that ANALYZE only', async () => {
    const db = database.db;
    const bounds = async (table: string) =>
      Number(
        (
          await sql<{ n: number }>`select array_length(histogram_bounds, 1) as n from pg_stats
            where tablename = ${table} and attname = 'x'`.execute(db)
        ).rows[0]!.n,
      );
    await sql`create table big_sample (x int not null)`.execute(db);
    await sql`create table small_sample (x int not null)`.execute(db);
    await sql`insert into big_sample select (g * 7919) % 1000003 from generate_series(1, ${LARGE_TABLE_ROWS + 20_000}) g`.execute(
      db,
    );
    await sql`insert into small_sample select g from generate_series(1, 5000) g`.execute(db);
    await flushStats(db);
    // The first round only learns the big table's size (never counted: 0 rows as far as it knew).
    expect((await maintain(db)).map((d) => d.table)).toEqual(
      expect.arrayContaining(['public.big_sample', 'public.small_sample']),
    );
    expect(await bounds('big_sample')).toBe(101);
    expect(await bounds('small_sample')).toBe(101);
    await sql`insert into big_sample select g from generate_series(1, 20000) g`.execute(db);
    await flushStats(db);
    expect((await maintain(db)).map((d) => d.table)).toContain('public.big_sample');
    // default_statistics_target 20: a histogram of 21 bounds instead of 101.
    expect(await bounds('big_sample')).toBe(LARGE_TABLE_STATISTICS + 1);
    const setting = await sql<{ v: string }>`select current_setting('default_statistics_target') as v`.execute(db);
    expect(setting.rows[0]!.v).toBe('100');
  });

  it('the work on a large table waits while busy, at most MAX_DEFER_MS; small tables never wait', async () => {
    const db = database.db;
    await sql`create table big_wait (x int not null)`.execute(db);
    await sql`create table small_wait (x int not null)`.execute(db);
    await sql`insert into big_wait select g from generate_series(1, ${LARGE_TABLE_ROWS + 20_000}) g`.execute(db);
    await flushStats(db);
    await maintain(db); // counts the big table's rows
    const grow = async () => {
      await sql`insert into big_wait select g from generate_series(1, 20000) g`.execute(db);
      await sql`insert into small_wait select g from generate_series(1, 5000) g`.execute(db);
      await flushStats(db);
    };
    await grow();
    let clock = 1_000_000;
    const waiting = new Map<string, number>();
    const busy = { busy: () => true, waiting, now: () => clock };
    const tables = async (opts = busy) => (await maintain(db, opts)).map((d) => d.table);

    const first = await tables();
    expect(first).toContain('public.small_wait');
    expect(first).not.toContain('public.big_wait');
    expect([...waiting.keys()]).toEqual(['public.big_wait']);
    clock += MAX_DEFER_MS - 1;
    expect(await tables()).not.toContain('public.big_wait');
    clock += 1;
    // Waited long enough: done even though the database is still busy.
    expect(await tables()).toContain('public.big_wait');
    expect(waiting.size).toBe(0);

    // Not busy: done at once.
    await grow();
    expect(await tables({ ...busy, busy: () => false })).toEqual(
      expect.arrayContaining(['public.big_wait', 'public.small_wait']),
    );
  });

  it('the database reports how long it was in use: a statement counts, idle time does not', async () => {
    const db = database.db;
    const inUse = () => {
      const s = poolStatsOf(db)!();
      if (s.kind !== 'pglite') throw new Error('not PGlite');
      return s.inUseMs;
    };
    const a = inUse();
    await new Promise((r) => setTimeout(r, 200));
    const b = inUse();
    expect(b - a).toBeLessThan(50);
    await sql`select pg_sleep(0.2)`.execute(db);
    expect(inUse() - b).toBeGreaterThanOrEqual(190);
  });
});

/** Makes this backend's pending table statistics visible in pg_stat_user_tables. */
async function flushStats(db: TestDatabase['db']) {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  // The flush happens when the backend next goes idle, i.e. after this statement's transaction.
  await sql`select 1`.execute(db);
}

pgliteOnly('the maintenance job', () => {
  it('runs on the embedded database unless DB_MAINTENANCE_MS is 0, and counts its work in /metrics', async () => {
    const on = await startTestApp({ DB_MAINTENANCE_MS: '3600000', METRICS_TOKEN: 'metrics-token-0123456789' });
    try {
      expect(on.app.scheduler.list().map((j) => j.name)).toContain('db.maintenance');
      const metrics = await on.app.inject({
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      expect(metrics.body).toContain('portal_db_maintenance_seconds_total');
    } finally {
      await on.close();
    }
    const off = await startTestApp({ DB_MAINTENANCE_MS: '0' });
    try {
      expect(off.app.scheduler.list().map((j) => j.name)).not.toContain('db.maintenance');
    } finally {
      await off.close();
    }
  });

  it('refuses an interval under a second', async () => {
    expect(() => testConfig({ DB_MAINTENANCE_MS: '10' })).toThrow(/DB_MAINTENANCE_MS/);
  });
});
