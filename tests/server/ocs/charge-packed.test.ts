/**
 * The server reads ocs_charge_many's answer as one packed text value (chargeManyPacked) instead of a
 * row per charge. Random batches go through both forms on the same state, each in a transaction that
 * is rolled back, and what the server makes of them must be the same; the unpacking refuses anything
 * but charges 1..n; and a batch whose statement ran but whose answer is unreadable is never charged
 * again one by one, and the script is told the query may have been charged. On PGlite here, on
 * PostgreSQL in that leg.
 */
import { sql } from 'kysely';
import { mulberry32 } from '../../../bench/lib/random';
import { VERSION_SQL } from '../../../server/modules/ocs/bank/index-sync';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import {
  CHARGE_MANY_TYPES,
  ChargeBatcher,
  chargeManyArgs,
  chargeManyCall,
  chargeManyPacked,
  unpackOutcomes,
  UnreadableChargeResult,
  type ChargeInput,
} from '../../../server/modules/ocs/wallet/charge';
import { createUser } from '../../../server/modules/user/service';
import { rolledBack, startTestApp, uniqueName, type TestContext } from '../helpers';
import { ask, seedQuestions, userWithToken } from './admin-fixtures';

const RUNS = Number(process.env.CHARGE_PACKED_RUNS ?? 80);

let t: TestContext;
let users: number[];
let questions: Array<{ id: number; version: number }>;
let generation: number;

beforeAll(async () => {
  t = await startTestApp();
  users = [];
  for (let i = 0; i < 4; i++) {
    const u = await createUser(t.db, { username: uniqueName('pack'), password: 'packed-password-1' });
    // The last user never gets a wallet row.
    if (i < 3) await credit(t.db, u.id, 'topup', 4, 'test');
    users.push(u.id);
  }
  await sql`insert into ocs_questions (title, title_hash, options_hash, norm_title, type, answer, source)
            select 'q' || g, 'packed-' || g, '', 'q' || g, 'single', '["A"]'::jsonb, 'import'
              from generate_series(1, 3) g`.execute(t.db);
  questions = (
    await sql<{ id: string; version: string }>`
      select id, ${VERSION_SQL} as version from ocs_questions where title_hash like 'packed-%' order by id`.execute(
      t.db,
    )
  ).rows.map((r) => ({ id: Number(r.id), version: Number(r.version) }));
  generation = Number((await sql<{ n: string }>`select n from ocs_bank_generation`.execute(t.db)).rows[0]!.n);
  // A recent answer of k1 for the first user: a free repeat.
  await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome, cost, created_at)
            values (${users[0]!}, 'earlier', 'k1', 'single', 'bank', 1, now() - interval '1 minute')`.execute(t.db);
});
afterAll(() => t.close());

/** Columns a random batch may leave at the function's default for every charge (then sent as NULL). */
const DEFAULTED = ['model', 'version', 'source', 'confidence', 'group', 'refuse'] as const;

function randomBatch(
  next: () => number,
  defaulted: ReadonlySet<(typeof DEFAULTED)[number]> = new Set(),
): ChargeInput[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return Array.from({ length: 1 + Math.floor(next() * 30) }, () => {
    const q = next() < 0.6 ? pick(questions) : null;
    const v = next();
    return {
      userId: pick(users),
      tokenId: pick([null, 7]),
      price: pick([0, 1, 1, 2]),
      key: pick(['k1', 'k2', 'k3', 'k4']),
      title: pick(['题目', '{花括号,逗号};分号', 'NULL', '引号"与\\反斜杠']),
      type: 'single',
      outcome: pick(['bank', 'ai'] as const),
      questionId: q?.id ?? null,
      modelId: defaulted.has('model') ? null : pick([null, 3]),
      answer: pick(['A', '1,2;3']),
      // As read (labelled with the generation of now, or not), changed since, or no version.
      ...(q && v < 0.75 && !defaulted.has('version')
        ? { version: v < 0.5 ? q.version : q.version + 1, ...(v < 0.25 ? { generation } : {}) }
        : {}),
      ...(defaulted.has('source') ? {} : { source: pick(['import', null]) }),
      ...(defaulted.has('confidence') ? {} : { confidence: pick([0.9, null]) }),
      ...(defaulted.has('group') ? {} : { group: pick([0, 0, 1]) }),
      ...(defaulted.has('refuse') ? {} : { refuse: pick([false, false, true]) }),
    };
  });
}

/** Query ids as their rank among the batch's (the sequence is not rolled back); a stale charge has none. */
function ranked(
  rows: Array<{ r_index: number; r_outcome: string; r_balance: number; r_query_id: number | null; r_cost: number }>,
) {
  const ids = rows.map((r) => r.r_query_id).filter((id): id is number => id !== null);
  const rank = new Map([...ids].sort((a, b) => a - b).map((id, i) => [id, i + 1]));
  return rows.map((r) => ({
    index: Number(r.r_index),
    outcome: r.r_outcome,
    balance: Number(r.r_balance),
    query: r.r_query_id === null ? null : rank.get(Number(r.r_query_id)),
    cost: Number(r.r_cost),
  }));
}

test(`${RUNS} random batches: the packed answer says what the rows say`, async () => {
  const next = mulberry32(20261130);
  const seen = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
    const batch = randomBatch(next);
    const rows = (await rolledBack(t.db, async (trx) => {
      const r = await chargeManyCall(batch).execute(trx);
      return { rows: ranked(r.rows), generation: Number(r.rows[0]!.r_generation) };
    })) as { rows: ReturnType<typeof ranked>; generation: number };
    const packed = (await rolledBack(t.db, async (trx) => {
      const r = await trx.executeQuery(chargeManyPacked(batch));
      const row = r.rows[0]!;
      return { rows: ranked(unpackOutcomes(row.outcomes, batch.length)), generation: Number(row.generation) };
    })) as typeof rows;
    expect({ run, ...packed }).toEqual({ run, ...rows });
    for (const r of rows.rows) seen.add(r.outcome);
  }
  // The random batches reached every outcome.
  expect([...seen].sort()).toEqual(['ai', 'bank', 'cache', 'no_balance', 'stale']);
});

test(`${RUNS} random batches: a column sent as NULL (every charge at the default) says what the full column says`, async () => {
  const next = mulberry32(20261201);
  const defaults: Record<(typeof DEFAULTED)[number], unknown> = {
    model: null,
    version: null,
    source: null,
    confidence: null,
    group: 0,
    refuse: false,
  };
  const at: Record<(typeof DEFAULTED)[number], number> = {
    model: 8,
    version: 10,
    source: 11,
    confidence: 12,
    group: 13,
    refuse: 14,
  };
  let nulled = 0;
  for (let run = 0; run < RUNS; run++) {
    const defaulted = new Set(DEFAULTED.filter(() => next() < 0.5));
    const batch = randomBatch(next, defaulted);
    const sent = chargeManyArgs(batch);
    for (const name of DEFAULTED) {
      // A column is sent as NULL exactly when every charge leaves it at the default.
      expect({ run, name, isNull: sent[at[name]] === null }).toEqual({
        run,
        name,
        isNull: batch.every((c) => {
          const value = {
            model: c.modelId,
            version: c.version,
            source: c.source,
            confidence: c.confidence,
            group: c.group,
            refuse: c.refuse,
          }[name];
          return (value ?? defaults[name]) === defaults[name];
        }),
      });
    }
    nulled += sent.filter((v) => v === null).length;
    const full = sent.map((v, i) =>
      v === null ? batch.map(() => defaults[DEFAULTED.find((name) => at[name] === i)!]) : v,
    );
    const call = (args: unknown[]) =>
      sql<{ r_index: number; r_outcome: string; r_balance: number; r_query_id: number | null; r_cost: number }>`
        select * from ocs_charge_many(${sql.join(args.map((v, i) => sql`${v}::${sql.raw(CHARGE_MANY_TYPES[i]!)}`))})`;
    const withNulls = await rolledBack(t.db, async (trx) => ranked((await call(sent).execute(trx)).rows));
    const withFull = await rolledBack(t.db, async (trx) => ranked((await call(full).execute(trx)).rows));
    expect({ run, rows: withNulls }).toEqual({ run, rows: withFull });
  }
  // Most batches sent some column as NULL.
  expect(nulled).toBeGreaterThan(RUNS);
});

test('an empty batch packs to nothing', async () => {
  const r = await t.db.executeQuery(chargeManyPacked([]));
  expect(r.rows).toEqual([{ outcomes: null, generation: null }]);
  expect(unpackOutcomes(r.rows[0]!.outcomes, 0)).toEqual([]);
});

describe('unpacking', () => {
  test('reads each charge into its place; a stale charge has no query id', () => {
    expect(unpackOutcomes('2,stale,0,,0;1,bank,41,1234567890123,2', 2)).toEqual([
      { r_index: 1, r_outcome: 'bank', r_balance: 41, r_query_id: 1234567890123, r_cost: 2 },
      { r_index: 2, r_outcome: 'stale', r_balance: 0, r_query_id: null, r_cost: 0 },
    ]);
  });

  test.each([
    ['fewer charges than sent', '1,bank,1,1,1', 2],
    ['more charges than sent', '1,bank,1,1,1;2,bank,1,2,1', 1],
    ['a charge twice', '1,bank,1,1,1;1,bank,1,2,1', 2],
    ['an index out of range', '0,bank,1,1,1', 1],
    ['an index past the end', '2,bank,1,1,1', 1],
    ['a missing field', '1,bank,1,1', 1],
    ['an extra field', '1,bank,1,1,1,1', 1],
    ['an outcome that is not a word', '1,Bank!,1,1,1', 1],
    ['a balance that is not a number', '1,bank,1.5,1,1', 1],
    ['a trailing separator', '1,bank,1,1,1;', 1],
    ['nothing for one charge', null, 1],
    ['an empty text for one charge', '', 1],
    ['a NUL byte', '1,bank,1,1,1\u0000', 1],
  ] as const)('refuses %s', (_, text, n) => {
    expect(() => unpackOutcomes(text, n)).toThrow(UnreadableChargeResult);
  });
});

/**
 * Runs `fn` with ocs_charge_many replaced by one that ran but answers something unreadable: it debits
 * the first charge's wallet by 1 and answers one charge more than it was given, each as index 1.
 */
async function withUnreadableChargeMany(fn: () => Promise<void>): Promise<void> {
  const original = (
    await sql<{ def: string }>`select pg_get_functiondef('ocs_charge_many'::regproc) as def`.execute(t.db)
  ).rows[0]!.def;
  await sql
    .raw(
      `create or replace function ocs_charge_many(p_user integer[], p_token integer[], p_price integer[],
         p_key text[], p_title text[], p_type text[], p_outcome text[], p_question bigint[], p_model integer[],
         p_answer text[], p_version bigint[], p_source text[], p_confidence real[], p_group integer[],
         p_refuse boolean[], p_generation bigint[] default null::bigint[])
         returns table(r_index integer, r_outcome text, r_balance bigint, r_query_id bigint, r_cost integer, r_generation bigint)
         language plpgsql as $$
       begin
         update ocs_wallets set balance = balance - 1 where user_id = p_user[1];
         return query select 1, 'bank'::text, 0::bigint, 1::bigint, 1, null::bigint
                        from generate_series(0, cardinality(p_user));
       end $$`,
    )
    .execute(t.db);
  try {
    await fn();
  } finally {
    await sql.raw(original).execute(t.db);
  }
}

const balanceOf = async (userId: number) =>
  Number(
    (await sql<{ balance: string }>`select balance from ocs_wallets where user_id = ${userId}`.execute(t.db)).rows[0]!
      .balance,
  );
const queriesOf = async (userId: number) =>
  Number(
    (await sql<{ n: string }>`select count(*) as n from ocs_queries where user_id = ${userId}`.execute(t.db)).rows[0]!
      .n,
  );

test('an unreadable answer fails the batch and charges nothing again', async () => {
  const user = await createUser(t.db, { username: uniqueName('unread'), password: 'packed-password-1' });
  await credit(t.db, user.id, 'topup', 10, 'test');
  const charge = (key: string): ChargeInput => ({
    userId: user.id,
    tokenId: null,
    price: 1,
    key,
    title: '题目',
    type: 'single',
    outcome: 'bank',
    questionId: questions[0]!.id,
    modelId: null,
    answer: 'A',
    version: questions[0]!.version,
  });
  await withUnreadableChargeMany(async () => {
    const batcher = new ChargeBatcher(t.db);
    const results = await Promise.allSettled([batcher.charge(charge('u1')), batcher.charge(charge('u2'))]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(UnreadableChargeResult);
    }
  });
  // Two statements ran (the first charge alone, the second behind it), each debiting 1; charging
  // again one by one (ocs_charge) would have debited 1 more for each charge and logged it.
  expect(await balanceOf(user.id)).toBe(8);
  expect(await queriesOf(user.id)).toBe(0);
});

test('the script is told that a query whose charge answer was unreadable may have been charged', async () => {
  await seedQuestions(t, [
    { title: '打包测试：一年有几个季节？', type: 'single', options: ['四', '三'], answer: ['A'] },
  ]);
  const { uid, token } = await userWithToken(t, 10);
  await withUnreadableChargeMany(async () => {
    expect(await ask(t, token, '打包测试：一年有几个季节？', 'single', 'A. 四\nB. 三')).toEqual({
      code: 0,
      msg: '服务暂时不可用，请稍后再试（本次可能已扣费，请在账单中核对）',
    });
  });
  expect(await balanceOf(uid)).toBe(9);
  // Answered again once the charge reads right.
  expect(await ask(t, token, '打包测试：一年有几个季节？', 'single', 'A. 四\nB. 三')).toMatchObject({
    code: 1,
    answer: JSON.stringify(['A. 四']),
  });
  expect(await balanceOf(uid)).toBe(8);
});
