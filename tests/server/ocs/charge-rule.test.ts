/**
 * The charge rule, held to a model of it written here in TypeScript from the rule's own description
 * (server/db/functions/ocs_charge_many.sql): random batches (several users, one without a wallet;
 * repeated keys, earlier recent queries; free and priced answers; refusals, groups that run short;
 * fresh, changed and wrong-marked question versions; long and odd text) go through ocs_charge_many() in
 * a transaction that is rolled back, and what it returned and wrote is compared with what the model
 * says. On PGlite here, on PostgreSQL in that leg.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { mulberry32 } from '../../../bench/lib/random';
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
  refuse: boolean;
}

beforeAll(async () => {
  t = await openTestDatabase();
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
      refuse: pick([false, false, false, true]),
    };
  });
}

/** Runs the function on the batch in a transaction that is rolled back; what it returned and wrote. */
async function outcome(db: Kysely<DB>, balances: number[], batch: Element[]) {
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
          select r_index, r_outcome, r_balance, r_query_id, r_cost from ocs_charge_many(${col((e) => e.user)}::int[], ${col((e) => e.token)}::int[],
            ${col((e) => e.price)}::int[], ${col((e) => e.key)}::text[], ${col((e) => e.title)}::text[],
            ${col((e) => e.type)}::text[], ${col((e) => e.outcome)}::text[], ${col((e) => e.question)}::bigint[],
            ${col((e) => e.model)}::int[], ${col((e) => e.answer)}::text[], ${col((e) => e.version)}::bigint[],
            ${col((e) => e.source)}::text[], ${col((e) => e.confidence)}::real[], ${col((e) => e.group)}::int[],
            ${col((e) => e.refuse)}::boolean[], ${col(() => null)}::bigint[])`.execute(trx)
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

/** Text as the function keeps it: at most `n` characters (code points, as SQL's left() counts them). */
const left = (s: string, n: number) => Array.from(s).slice(0, n).join('');

/** The earlier queries that make a free repeat: answered (bank, ai, cache) within 10 minutes. */
let recentPairs: Set<string>;

/** What the rule says the function returns and writes for this batch (the model). */
function model(balances: number[], batch: Element[]) {
  const wallet = new Map(users.slice(0, 3).map((u, i) => [u, balances[i]!]));
  const recent = new Set(recentPairs);
  const stopped = new Set<number>();
  const touched = new Set<number>();
  const returned: Array<Record<string, unknown>> = [];
  const queries: Array<Record<string, unknown>> = [];
  const ledger: Array<Record<string, unknown>> = [];
  batch.forEach((e, i) => {
    const q = questions.find((x) => x.id === e.question);
    if (e.version !== null && (!q || q.wrong || q.version !== e.version)) {
      returned.push({ r_index: i + 1, r_outcome: 'stale', r_balance: 0, r_query_id: null, r_cost: 0 });
      return;
    }
    const k = `${e.user}:${e.key}`;
    const balance = wallet.get(e.user) ?? 0;
    let out: string;
    let cost = 0;
    if (recent.has(k)) out = 'cache';
    else if (e.price === 0) out = e.outcome;
    else if (e.refuse || (e.group !== 0 && stopped.has(e.group))) out = 'no_balance';
    else if (balance >= e.price) {
      out = e.outcome;
      cost = e.price;
      wallet.set(e.user, balance - cost);
      touched.add(e.user);
    } else out = 'no_balance';
    if (out === 'no_balance' && e.group !== 0) stopped.add(e.group);
    if (out === 'bank' || out === 'ai' || out === 'cache') recent.add(k);
    const after = wallet.get(e.user) ?? 0;
    const rank = queries.length + 1;
    returned.push({ r_index: i + 1, r_outcome: out, r_balance: after, r_query_id: rank, r_cost: cost });
    queries.push({
      id: rank,
      user_id: e.user,
      token_id: e.token,
      title: left(e.title, 2000),
      title_hash: e.key,
      type: e.type,
      outcome: out,
      question_id: e.question,
      answer: out === 'no_balance' ? null : e.answer,
      cost,
      model_id: e.model,
      message: null,
      source: e.source === null ? null : left(e.source, 80),
      confidence: e.confidence,
      now: true,
    });
    if (cost > 0) {
      ledger.push({
        user_id: e.user,
        kind: 'charge',
        amount: -cost,
        balance_after: after,
        memo: left(e.title, 200),
        query_id: rank,
        actor_id: null,
        now: true,
      });
    }
  });
  const wallets = users.slice(0, 3).map((u) => ({ user_id: u, balance: wallet.get(u)!, touched: touched.has(u) }));
  return { returned, queries, ledger, wallets };
}

/** Numbers as numbers: the drivers give bigint columns as strings or numbers. */
const numeric = (rows: Array<Record<string, unknown>>) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        typeof v === 'string' &&
        /^-?\d+$/.test(v) &&
        k !== 'title' &&
        k !== 'title_hash' &&
        k !== 'answer' &&
        k !== 'memo'
          ? Number(v)
          : v,
      ]),
    ),
  );

test(`${RUNS} random batches: the charge returns and writes what the rule says`, async () => {
  recentPairs = new Set(
    (
      await sql<{ k: string }>`select user_id || ':' || title_hash as k from ocs_queries
        where outcome in ('bank', 'ai', 'cache') and created_at > now() - interval '10 minutes'`.execute(t.db)
    ).rows.map((r) => r.k),
  );
  const next = mulberry32(20261125);
  const seen = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
    const batch = randomBatch(next);
    const balances = [0, 1, 2].map(() => Math.floor(next() * 7));
    const expected = model(balances, batch);
    const actual = await outcome(t.db, balances, batch);
    expect({
      run,
      returned: numeric(actual.returned),
      queries: numeric(actual.queries),
      ledger: numeric(actual.ledger),
      wallets: numeric(actual.wallets),
    }).toEqual({ run, ...expected });
    for (const r of expected.returned) seen.add(String(r.r_outcome));
  }
  // The random batches reached every outcome.
  expect([...seen].sort()).toEqual(['ai', 'bank', 'cache', 'no_balance', 'stale']);
});

test('an empty batch returns nothing and writes nothing', async () => {
  const r = await sql`select * from ocs_charge_many('{}'::int[], '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}',
    '{}', '{}', '{}', '{}', '{}', '{}', '{}')`.execute(t.db);
  expect(r.rows).toEqual([]);
});

/**
 * The free repeat is looked up by one probe of ocs_queries_cache_idx per user:key pair, never by
 * reading every query of the last 10 minutes: with statistics that have not seen the recent rows (as
 * under load, between analyzes), a join of the pairs with the log scanned them all.
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
            ${Array(n).fill(null)}::real[], ${Array(n).fill(0)}::int[], ${Array(n).fill(false)}::boolean[],
            ${Array(n).fill(null)}::bigint[])`.execute(trx);
    // Every key was answered a moment ago: all free repeats.
    expect(returned.rows.map((r) => r.r_outcome)).toEqual(Array(n).fill('cache'));
    const after = await read();
    const delta = Object.fromEntries(Object.keys(after).map((k) => [k, after[k]! - (before[k] ?? 0)]));
    return delta;
  });
  // A join read 20,006 entries of a time index here. One entry is the planner's own look at the
  // index's newest value, when it estimates the time range.
  expect(reads.ocs_queries_created_idx ?? 0).toBeLessThan(100);
  expect(reads.ocs_queries_cache_idx).toBeGreaterThanOrEqual(24);
  expect(reads.ocs_queries_cache_idx).toBeLessThan(100);
});
