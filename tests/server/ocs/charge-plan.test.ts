/**
 * The free-repeat look-up of the charge functions stays a probe of ocs_queries_cache_idx even when
 * their plan was made while no query was less than 10 minutes old (migration 0018): the first charge
 * after a quiet spell or a restart makes the plan the session keeps, and then the traffic comes.
 * Before 0018 that plan read the last 10 minutes of every user's queries through
 * ocs_queries_created_idx for each probe; the test shows it on 0017's definitions too, so it can fail.
 * (0021's ocs_charge_many keeps 0018's bound; its down and up are part of going back to 0017. Migration
 * 0022 dropped ocs_queries_created_idx, which no query needs: going back to 0017 re-creates it.)
 * Index entries read are the transaction's own statistics (pg_stat_get_xact_tuples_returned), in a
 * rolled-back transaction. On PGlite here, on PostgreSQL in that leg.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../server/db/schema';
import { migrations } from '../../../server/db/migrations';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { createUser } from '../../../server/modules/user/service';
import { openTestDatabase, rolledBack, uniqueName, type TestDatabase } from '../helpers';

let t: TestDatabase;
let user: number;

beforeAll(async () => {
  t = await openTestDatabase();
  user = (await createUser(t.db, { username: uniqueName('plan'), password: 'charge-password-1' })).id;
  await credit(t.db, user, 'topup', 1000, 'test');
});

afterAll(async () => {
  await t.close();
});

/** Half answered a moment ago (free repeats), half never asked (the common case: each probe finds nothing). */
const KEYS = Array.from({ length: 24 }, (_, i) => (i % 2 ? `recent-${i * 7 + 1}` : `new-${i}`));

/** ocs_charge_many for these keys of the test user, each a free bank answer. */
const chargeMany = (trx: Transaction<DB>, keys: string[]) => {
  const n = keys.length;
  return sql<{ r_outcome: string }>`
    select r_outcome from ocs_charge_many(${Array(n).fill(user)}::int[], ${Array(n).fill(null)}::int[],
      ${Array(n).fill(0)}::int[], ${keys}::text[], ${keys}::text[], ${Array(n).fill('single')}::text[],
      ${Array(n).fill('bank')}::text[], ${Array(n).fill(null)}::bigint[], ${Array(n).fill(null)}::int[],
      ${Array(n).fill('A')}::text[], ${Array(n).fill(null)}::bigint[], ${Array(n).fill(null)}::text[],
      ${Array(n).fill(null)}::real[], ${Array(n).fill(0)}::int[], ${Array(n).fill(false)}::boolean[])`.execute(trx);
};

/** ocs_charge, once per key (one probe each). */
const chargeEach = async (trx: Transaction<DB>, keys: string[]) => {
  for (const k of keys) {
    await sql`select * from ocs_charge(${user}::int, null::int, 0::int, ${k}::text, ${k}::text, 'single'::text,
      'bank'::text, null::bigint, null::int, 'A'::text, null::text, null::real, false)`.execute(trx);
  }
};

/**
 * In a rolled-back transaction: a day-old query log, analyzed (which makes the session plan the
 * charge again); one charge, planned now, while no query is recent; then 20,000 queries of the last
 * minutes. Returns the entries of each ocs_queries index the charge of the 24 keys then read.
 */
async function readsAfterQuietPlan(charge: (trx: Transaction<DB>, keys: string[]) => Promise<unknown>) {
  return rolledBack(t.db, async (trx) => {
    await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome, created_at)
                select ${user}, 'old ' || g, 'old-' || g, 'single', 'bank', now() - interval '1 day'
                  from generate_series(1, 5000) g`.execute(trx);
    await sql`analyze ocs_queries`.execute(trx);
    // ocs_charge_many keeps a generic plan by its own setting; ocs_charge would after five calls.
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await charge(trx, ['warm-up']);
    await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome, created_at)
                select ${user}, 'recent ' || g, 'recent-' || g, 'single', 'bank', now()
                  from generate_series(1, 20000) g`.execute(trx);
    const read = async () =>
      (
        await sql<{ name: string; n: string }>`
            select relname as name, pg_stat_get_xact_tuples_returned(oid)::text as n from pg_class
             where relname in ('ocs_queries_created_idx', 'ocs_queries_cache_idx', 'ocs_queries_user_idx')`.execute(trx)
      ).rows.reduce((m, r) => ({ ...m, [r.name]: Number(r.n) }), {} as Record<string, number>);
    const before = await read();
    await charge(trx, KEYS);
    const after = await read();
    return Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - (before[k] ?? 0)]));
  });
}

test.each([
  ['ocs_charge_many', chargeMany],
  ['ocs_charge', chargeEach],
])('%s planned while no query was recent: 24 probes of the cache index', async (_name, charge) => {
  const reads = await readsAfterQuietPlan(charge);
  expect(reads.ocs_queries_created_idx).toBeUndefined();
  expect(reads.ocs_queries_user_idx).toBeLessThan(100);
  expect(reads.ocs_queries_cache_idx).toBeGreaterThanOrEqual(KEYS.length / 2);
  expect(reads.ocs_queries_cache_idx).toBeLessThan(200);
});

test.each([
  ['ocs_charge_many', chargeMany],
  ['ocs_charge', chargeEach],
])(
  '%s with the bound of migration 0017: the same plan reads the last 10 minutes for every probe',
  async (_name, charge) => {
    // 0021 re-creates ocs_charge_many with 0018's bound: back to 0017's functions means undoing both
    // (and 0025's edits of 0021's function first), and 0022's drop of the time index that plan read.
    await migrations['0022_ocs_queries_created_index']!.down!(t.db);
    try {
      await migrations['0025_ocs_charge_checks_users']!.down!(t.db);
      await migrations['0021_ocs_bank_generation']!.down!(t.db);
      await migrations['0018_ocs_free_repeat_bound']!.down!(t.db);
      try {
        const reads = await readsAfterQuietPlan(charge);
        // Each of the 12 new keys read all 20,000 recent queries (and more of the day-old ones).
        expect(reads.ocs_queries_created_idx).toBeGreaterThan(12 * 20_000);
      } finally {
        await migrations['0018_ocs_free_repeat_bound']!.up(t.db);
        await migrations['0021_ocs_bank_generation']!.up(t.db);
        await migrations['0025_ocs_charge_checks_users']!.up(t.db);
      }
      // Up again with the index still there: the functions are as 0018, 0021 and 0025 leave them.
      const reads = await readsAfterQuietPlan(charge);
      expect(reads.ocs_queries_created_idx).toBeLessThan(100);
      expect(reads.ocs_queries_cache_idx).toBeGreaterThanOrEqual(KEYS.length / 2);
    } finally {
      await migrations['0022_ocs_queries_created_index']!.up(t.db);
    }
    expect((await readsAfterQuietPlan(charge)).ocs_queries_created_idx).toBeUndefined();
  },
);
