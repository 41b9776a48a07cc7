/**
 * The free-repeat look-up of the charge stays a probe of ocs_queries_cache_idx even when its plan was
 * made while no query was less than 10 minutes old: the first charge after a quiet spell or a restart
 * makes the plan the session keeps, and then the traffic comes. With the bound written as
 * `now() - interval '10 minutes'` instead of a sub-select, that plan read the last 10 minutes of every
 * user's queries for each probe. Index entries read are the transaction's own statistics
 * (pg_stat_get_xact_tuples_returned), in a rolled-back transaction. On PGlite here, on PostgreSQL in
 * that leg.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../server/db/schema';
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
      ${Array(n).fill(null)}::real[], ${Array(n).fill(0)}::int[], ${Array(n).fill(false)}::boolean[],
      ${Array(n).fill(null)}::bigint[])`.execute(trx);
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

test('planned while no query was recent: 24 probes of the cache index', async () => {
  const reads = await readsAfterQuietPlan(chargeMany);
  expect(reads.ocs_queries_created_idx).toBeUndefined();
  expect(reads.ocs_queries_user_idx).toBeLessThan(100);
  expect(reads.ocs_queries_cache_idx).toBeGreaterThanOrEqual(KEYS.length / 2);
  expect(reads.ocs_queries_cache_idx).toBeLessThan(200);
});
