/**
 * ocs_charge_many() works a batch out set-wise (migration 0015). It must do exactly what migration
 * 0012's element-by-element version did: the same outcomes, balances and query ids returned, the same
 * query-log rows, ledger rows and wallet balances written. Random batches (several users, one without a
 * wallet; repeated keys, earlier recent queries; free and priced answers; refusals, groups that run
 * short; fresh, changed and wrong-marked question versions; long and odd text) go through both
 * versions on the same state, each in a transaction that is rolled back, and the two are compared.
 * On PGlite here, on PostgreSQL in that leg.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { mulberry32 } from '../../../bench/lib/random';
import { createElementWiseCharge, ELEMENT_WISE } from '../../../bench/ocs/charge-reference';
import type { DB } from '../../../server/db/schema';
import { VERSION_SQL } from '../../../server/modules/ocs/bank/index-sync';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { createUser } from '../../../server/modules/user/service';
import { openTestDatabase, rolledBack, uniqueName, type TestDatabase } from '../helpers';

const RUNS = Number(process.env.CHARGE_SET_RUNS ?? 150);

let t: TestDatabase;
let users: number[];
/** Question ids with their current version, one of them marked wrong. */
let questions: Array<{ id: number; version: number; wrong: boolean }>;

interface Element {
  user: number;
  token: number | null;
  price: number;
  key: string;
  title: string;
  type: string;
  outcome: string;
  question: number | null;
  model: number | null;
  answer: string;
  version: number | null;
  source: string | null;
  confidence: number | null;
  group: number;
  refuse: boolean | null;
}

beforeAll(async () => {
  t = await openTestDatabase();
  // 0012's version, under another name, as the reference.
  await createElementWiseCharge(t.db);
  users = [];
  for (let i = 0; i < 4; i++) {
    const u = await createUser(t.db, { username: uniqueName('chg'), password: 'charge-password-1' });
    // The last user never gets a wallet row.
    if (i < 3) await credit(t.db, u.id, 'topup', 5, 'test');
    users.push(u.id);
  }
  await sql`insert into ocs_questions (title, title_hash, options_hash, norm_title, type, answer, source, status)
            select 'q' || g, 'charge-set-' || g, '', 'q' || g, 'single', '["A"]'::jsonb, 'import',
                   case when g = 3 then 'wrong' else 'verified' end
              from generate_series(1, 3) g`.execute(t.db);
  questions = (
    await sql<{ id: string; version: string; status: string }>`
      select id, ${VERSION_SQL} as version, status
        from ocs_questions where title_hash like 'charge-set-%' order by id`.execute(t.db)
  ).rows.map((r) => ({ id: Number(r.id), version: Number(r.version), wrong: r.status === 'wrong' }));
  // Earlier queries: recent ones that make a free repeat (bank, cache) and ones that do not (no_balance,
  // miss, or older than 10 minutes).
  const earlier: Array<[number, string, string, string]> = [
    [users[0]!, 'k1', 'bank', '1 minute'],
    [users[1]!, 'k2', 'cache', '2 minutes'],
    [users[0]!, 'k3', 'no_balance', '1 minute'],
    [users[1]!, 'k3', 'miss', '1 minute'],
    [users[2]!, 'k4', 'ai', '11 minutes'],
    [users[3]!, 'k1', 'ai', '5 minutes'],
  ];
  for (const [user, key, outcome, ago] of earlier)
    await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome, cost, created_at)
              values (${user}, 'earlier', ${key}, 'single', ${outcome}, 0, now() - ${ago}::interval)`.execute(t.db);
});
afterAll(() => t.close());

function randomBatch(next: () => number): Element[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const text = () =>
    pick(['题目', '引号"与\\反斜杠', '{花括号,逗号}', 'NULL', '换行\n制表\t', '😀', "单'引号", '长'.repeat(2500)]);
  return Array.from({ length: 1 + Math.floor(next() * 25) }, () => {
    const q = next() < 0.5 ? pick(questions) : null;
    const v = next();
    return {
      user: pick(users),
      token: pick([null, 7]),
      price: pick([0, 1, 1, 2, 3]),
      key: pick(['k1', 'k2', 'k3', 'k4', 'k5', 'k6']),
      title: text(),
      type: pick(['single', 'judgement']),
      outcome: pick(['bank', 'ai']),
      question: q?.id ?? null,
      model: pick([null, 3]),
      answer: text(),
      // A version only with a question: as read, changed since, or (for the wrong one) as read.
      version: q ? (v < 0.5 ? null : v < 0.8 ? q.version : q.version + 1) : null,
      source: pick([null, 'import', 'upstream:' + 'x'.repeat(100)]),
      confidence: pick([null, 0.5, 1]),
      group: pick([0, 0, 1, 2]),
      refuse: pick([null, false, false, false, true]),
    };
  });
}

/** Runs one version on the batch in a transaction that is rolled back; what it returned and wrote. */
async function outcome(db: Kysely<DB>, fn: string, balances: number[], batch: Element[]) {
  return rolledBack(db, async (trx: Transaction<DB>) => {
    for (let i = 0; i < 3; i++)
      await sql`update ocs_wallets set balance = ${balances[i]!} where user_id = ${users[i]!}`.execute(trx);
    const maxQuery = (await sql<{ m: string }>`select coalesce(max(id), 0) as m from ocs_queries`.execute(trx)).rows[0]!
      .m;
    const maxLedger = (await sql<{ m: string }>`select coalesce(max(id), 0) as m from ocs_ledger`.execute(trx)).rows[0]!
      .m;
    const col = <T>(f: (e: Element) => T) => batch.map(f);
    const returned = (
      await sql<{ r_outcome: string } & Record<string, unknown>>`
          select r_index, r_outcome, r_balance, r_query_id, r_cost from ${sql.raw(fn)}(${col((e) => e.user)}::int[], ${col((e) => e.token)}::int[],
            ${col((e) => e.price)}::int[], ${col((e) => e.key)}::text[], ${col((e) => e.title)}::text[],
            ${col((e) => e.type)}::text[], ${col((e) => e.outcome)}::text[], ${col((e) => e.question)}::bigint[],
            ${col((e) => e.model)}::int[], ${col((e) => e.answer)}::text[], ${col((e) => e.version)}::bigint[],
            ${col((e) => e.source)}::text[], ${col((e) => e.confidence)}::real[], ${col((e) => e.group)}::int[],
            ${col((e) => e.refuse)}::boolean[])`.execute(trx)
    ).rows;
    const queries = (
      await sql<Record<string, unknown>>`
          select id, user_id, token_id, title, title_hash, type, outcome, question_id, answer, cost, model_id,
                 message, source, confidence, created_at = now() as now
            from ocs_queries where id > ${maxQuery} order by id`.execute(trx)
    ).rows;
    const ledger = (
      await sql<Record<string, unknown>>`
          select user_id, kind, amount, balance_after, memo, query_id, actor_id, created_at = now() as now
            from ocs_ledger where id > ${maxLedger} order by id`.execute(trx)
    ).rows;
    const wallets = (
      await sql<Record<string, unknown>>`
          select user_id, balance, updated_at = now() as touched from ocs_wallets
           where user_id = any(${users}::int[]) order by user_id`.execute(trx)
    ).rows;
    // Query ids as their rank among this run's new ids (the sequence is not rolled back).
    const rank = new Map(queries.map((q, i) => [String(q.id), i + 1]));
    const byRank = (id: unknown) => (id === null ? null : (rank.get(String(id)) ?? `unknown ${String(id)}`));
    return {
      returned: returned.map((r) => ({ ...r, r_query_id: byRank(r.r_query_id) })),
      queries: queries.map((q) => ({ ...q, id: byRank(q.id) })),
      ledger: ledger.map((l) => ({ ...l, query_id: byRank(l.query_id) })),
      wallets,
    };
  });
}

test(`${RUNS} random batches: the set-wise charge returns and writes what the element-wise one did`, async () => {
  const next = mulberry32(20261125);
  const seen = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
    const batch = randomBatch(next);
    const balances = [0, 1, 2].map(() => Math.floor(next() * 7));
    const expected = await outcome(t.db, ELEMENT_WISE, balances, batch);
    const actual = await outcome(t.db, 'ocs_charge_many', balances, batch);
    expect({ run, ...actual }).toEqual({ run, ...expected });
    for (const r of expected.returned) seen.add(r.r_outcome);
  }
  // The random batches reached every outcome.
  expect([...seen].sort()).toEqual(['ai', 'bank', 'cache', 'no_balance', 'stale']);
});

test('an empty batch returns nothing and writes nothing', async () => {
  const r = await sql`select * from ocs_charge_many('{}'::int[], '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
    '{}', '{}', '{}', '{}', '{}', '{}')`.execute(t.db);
  expect(r.rows).toEqual([]);
});

/**
 * The free repeat is looked up by one probe of ocs_queries_cache_idx per user:key pair (migration 0016),
 * never by reading every query of the last 10 minutes: with statistics that have not seen the recent
 * rows (as under load, between analyzes), 0015's join scanned them all through ocs_queries_created_idx.
 * The index entries read are the transaction's own statistics (pg_stat_get_xact_tuples_returned: the
 * idx_tup_read of pg_stat_xact_user_indexes, a view PGlite lacks), in a rolled-back transaction.
 */
test('the free-repeat lookup reads a few index entries, not the last 10 minutes of queries', async () => {
  const reads = await rolledBack(t.db, async (trx) => {
    await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome, created_at)
                  select ${users[0]!}, 'recent ' || g, 'recent-' || g, 'single', 'bank', now() - interval '1 day'
                    from generate_series(1, 20000) g`.execute(trx);
    // The statistics see a day-old table; then the rows become the last minutes' traffic.
    await sql`analyze ocs_queries`.execute(trx);
    await sql`update ocs_queries set created_at = now() where title_hash like 'recent-%'`.execute(trx);
    const keys = Array.from({ length: 24 }, (_, i) => `recent-${i * 7 + 1}`);
    const read = async () =>
      (
        await sql<{
          name: string;
          n: string;
        }>`select relname as name, pg_stat_get_xact_tuples_returned(oid)::text as n
              from pg_class where relname in ('ocs_queries_created_idx', 'ocs_queries_cache_idx')`.execute(trx)
      ).rows.reduce((m, r) => ({ ...m, [r.name]: Number(r.n) }), {} as Record<string, number>);
    const before = await read();
    const n = keys.length;
    const returned = await sql<{ r_outcome: string }>`
          select r_outcome from ocs_charge_many(${Array(n).fill(users[0]!)}::int[], ${Array(n).fill(null)}::int[],
            ${Array(n).fill(1)}::int[], ${keys}::text[], ${keys}::text[], ${Array(n).fill('single')}::text[],
            ${Array(n).fill('bank')}::text[], ${Array(n).fill(null)}::bigint[], ${Array(n).fill(null)}::int[],
            ${Array(n).fill('A')}::text[], ${Array(n).fill(null)}::bigint[], ${Array(n).fill(null)}::text[],
            ${Array(n).fill(null)}::real[], ${Array(n).fill(0)}::int[], ${Array(n).fill(false)}::boolean[])`.execute(
      trx,
    );
    // Every key was answered a moment ago: all free repeats.
    expect(returned.rows.map((r) => r.r_outcome)).toEqual(Array(n).fill('cache'));
    const after = await read();
    const delta = Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - (before[k] ?? 0)]));
    return delta;
  });
  // 0015 read 20,006 entries of ocs_queries_created_idx here. One entry is the planner's own look at
  // the index's newest value, when it estimates the time range.
  expect(reads.ocs_queries_created_idx ?? 0).toBeLessThan(100);
  expect(reads.ocs_queries_cache_idx).toBeGreaterThanOrEqual(24);
  expect(reads.ocs_queries_cache_idx).toBeLessThan(100);
});
