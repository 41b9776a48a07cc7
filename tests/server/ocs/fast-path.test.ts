/**
 * The exact-hit path at the speed of a lookup: the token check from the token cache, the exact match
 * from the in-memory exact index, and only the charge reaching the database, in one statement with its
 * conditions (ocs_charge_many). What memory holds never outlives the row: a question changed, marked
 * wrong or deleted behind this instance's back (as another instance would) is looked up again.
 * Batched charges keep ocs_charge's rules: never below zero, nothing lost, a stale charge writes nothing.
 */
import { sql, type CompiledQuery } from 'kysely';
import type { QuestionInput } from '../../../server/modules/ocs/bank/question';
import { normalizeTitle } from '../../../server/modules/ocs/bank/normalize';
import { ExactIndex } from '../../../server/modules/ocs/bank/exact-index';
import { ChargeBatcher, chargeMany, type ChargeInput } from '../../../server/modules/ocs/wallet/charge';
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { ask, seedQuestions, userWithToken } from './admin-fixtures';
import { adminClient, createModel, createProvider } from './ai-helpers';
import { startFakeOpenAi } from '../../fixtures/fake-openai';
import { FAKES_ON_LOOPBACK, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;

const BANK: QuestionInput[] = [
  {
    title: '快速路径：光在真空中的速度约为多少？',
    type: 'single',
    options: ['30万千米每秒', '3万千米每秒'],
    answer: ['A'],
  },
  { title: '快速路径：下列属于质数的有', type: 'multiple', options: ['2', '4', '7', '9'], answer: ['2', '7'] },
  { title: '快速路径：水在标准大气压下100摄氏度沸腾。', type: 'judgement', options: [], answer: ['对'] },
  { title: '快速路径：三角形内角和为____度。', type: 'completion', options: [], answer: ['180'] },
  { title: '快速路径：删除测试题', type: 'judgement', options: [], answer: ['错'] },
  { title: '快速路径：标错测试题', type: 'judgement', options: [], answer: ['对'] },
];

const seed = (questions: QuestionInput[]) => seedQuestions(ctx, questions);

const idOf = async (title: string) =>
  Number(
    (
      await ctx.db
        .selectFrom('ocs_questions')
        .select('id')
        .where('norm_title', '=', normalizeTitle(title))
        .executeTakeFirstOrThrow()
    ).id,
  );

const balanceOf = async (uid: number) =>
  Number(
    (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst())?.balance ??
      0,
  );
const ledgerSum = async (uid: number) =>
  Number(
    (
      await sql<{ s: number }>`select coalesce(sum(amount), 0) as s from ocs_ledger where user_id = ${uid}`.execute(
        ctx.db,
      )
    ).rows[0]!.s,
  );

/** Every statement the app sends while `fn` runs. */
async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const executor = ctx.db.getExecutor();
  const spy = jest.spyOn(executor, 'executeQuery');
  try {
    await fn();
    return spy.mock.calls.map(([q]) => (q as CompiledQuery).sql);
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  ctx = await startTestApp(FAKES_ON_LOOPBACK);
  await seed(BANK);
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
});
afterAll(async () => {
  await ctx.close();
});

test('memory holds each question with what answering needs', () => {
  const exact = ctx.app.ocs.bank.exact;
  const [single] = exact.lookup(normalizeTitle(BANK[0]!.title))!;
  expect(single).toMatchObject({
    title: '快速路径：光在真空中的速度约为多少？',
    type: 'single',
    options: ['30万千米每秒', '3万千米每秒'],
    answer: ['30万千米每秒'],
  });
  expect(exact.lookup(normalizeTitle(BANK[1]!.title))![0]).toMatchObject({ answer: ['2', '7'] });
  expect(exact.lookup(normalizeTitle(BANK[3]!.title))![0]).toMatchObject({ type: 'completion', answer: ['180'] });
  expect(exact.lookup('没有这道题')).toEqual([]);
});

test('an exact hit with a known token sends one statement: the charge', async () => {
  const { uid, token } = await userWithToken(ctx, 10);
  // The first use reads the token (and writes last-used); the cache serves the next ones (on
  // PostgreSQL once its LISTEN connection is up).
  expect(await ask(ctx, token, '快速路径：三角形内角和为____度')).toMatchObject({
    code: 1,
    answer: JSON.stringify(['180']),
  });
  for (let i = 0; i < 100; i++) {
    const probe = await statementsDuring(() =>
      ctx.app.inject({ method: 'GET', url: '/api/token/check', headers: { authorization: `Bearer ${token}` } }),
    );
    if (probe.length === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  let body: unknown;
  const statements = await statementsDuring(async () => {
    body = await ask(ctx, token, '快速路径：光在真空中的速度约为多少', 'single', 'A. 3万千米每秒\nB. 30万千米每秒');
  });
  expect(body).toEqual({
    code: 1,
    question: '快速路径：光在真空中的速度约为多少？',
    answer: JSON.stringify(['B. 30万千米每秒']),
    source: 'import',
    confidence: 0.95,
    queryId: expect.any(Number),
    cost: 1,
    balance: 8,
  });
  // With a store shared by instances (the database here), the per-token limit is one upsert more.
  const limitWrites = statements.filter((s) => /rate_limits/.test(s));
  expect(limitWrites).toHaveLength(ctx.app.limits.store === 'database' ? 1 : 0);
  const rest = statements.filter((s) => !/rate_limits/.test(s));
  expect(rest).toHaveLength(1);
  expect(rest[0]).toMatch(/ocs_charge_many/);
  expect(await balanceOf(uid)).toBe(8);
  expect(await ledgerSum(uid)).toBe(8);
});

test('a question changed behind memory (as by another instance) is answered as it is now', async () => {
  const id = await idOf(BANK[2]!.title);
  await ctx.db
    .updateTable('ocs_questions')
    .set({ answer: JSON.stringify(['错误']), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
  const { uid, token } = await userWithToken(ctx, 5);
  expect(await ask(ctx, token, '快速路径：水在标准大气压下100摄氏度沸腾', 'judgement')).toMatchObject({
    code: 1,
    answer: '错误',
    cost: 1,
  });
  expect(await balanceOf(uid)).toBe(4);
  // Memory was repaired from that read: the next hit comes from memory again, with the new answer.
  expect(ctx.app.ocs.bank.exact.lookup(normalizeTitle(BANK[2]!.title))![0]).toMatchObject({ answer: ['错误'] });
});

test('a question deleted or marked wrong behind memory is not answered and costs nothing', async () => {
  const { uid, token } = await userWithToken(ctx, 5);
  await ctx.db
    .deleteFrom('ocs_questions')
    .where('id', '=', await idOf(BANK[4]!.title))
    .execute();
  await ctx.db
    .updateTable('ocs_questions')
    .set({ status: 'wrong', updated_at: sql`now()` })
    .where('id', '=', await idOf(BANK[5]!.title))
    .execute();
  expect(await ask(ctx, token, '快速路径：删除测试题', 'judgement')).toMatchObject({ code: 0 });
  expect(await ask(ctx, token, '快速路径：标错测试题', 'judgement')).toMatchObject({ code: 0 });
  expect(await balanceOf(uid)).toBe(5);
  expect(await ledgerSum(uid)).toBe(5);
  const logged = await ctx.db.selectFrom('ocs_queries').select('outcome').where('user_id', '=', uid).execute();
  expect(logged.map((r) => r.outcome)).toEqual(['miss', 'miss']);
  expect(ctx.app.ocs.bank.exact.lookup(normalizeTitle(BANK[4]!.title))).toEqual([]);
});

test('a question written by this instance is served from memory once read back', async () => {
  const [row] = await seed([{ title: '快速路径：新写入的题目', type: 'judgement', options: [], answer: ['对'] }]);
  expect(ctx.app.ocs.bank.exact.has(row!.id)).toBe(true);
  const { token } = await userWithToken(ctx, 5);
  expect(await ask(ctx, token, '快速路径：新写入的题目', 'judgement')).toMatchObject({ code: 1, answer: '正确' });
});

test('a fuzzy hit is scored and answered from memory: its only statement is the charge', async () => {
  await seed([
    {
      title: '快速路径模糊：细胞膜的主要成分是磷脂双分子层和蛋白质，其中起支架作用的是哪一种',
      type: 'single',
      options: ['磷脂双分子层', '蛋白质'],
      answer: ['A'],
    },
  ]);
  const { token } = await userWithToken(ctx, 5);
  const title = '快速路径模糊：细胞膜的主要成分是磷脂双分子层和蛋白质，其中起支架作用的是';
  let body: unknown;
  const statements = await statementsDuring(async () => {
    body = await ask(ctx, token, title, 'single', 'A. 蛋白质\nB. 磷脂双分子层');
  });
  expect(body).toMatchObject({ code: 1, answer: JSON.stringify(['B. 磷脂双分子层']), cost: 1 });
  expect(statements.filter((x) => /similarity|ocs_questions/.test(x))).toEqual([]);
  expect(statements.filter((x) => /ocs_charge_many/.test(x))).toHaveLength(1);

  // Changed behind memory: the charge refuses the version read, the candidate is read from the
  // database and answered as it is now.
  await ctx.db
    .updateTable('ocs_questions')
    .set({ answer: JSON.stringify(['蛋白质']), updated_at: sql`now()` })
    .where(
      'norm_title',
      '=',
      normalizeTitle('快速路径模糊：细胞膜的主要成分是磷脂双分子层和蛋白质，其中起支架作用的是哪一种'),
    )
    .execute();
  const { token: t2 } = await userWithToken(ctx, 5);
  const again = await statementsDuring(async () => {
    body = await ask(ctx, t2, title, 'single', 'A. 蛋白质\nB. 磷脂双分子层');
  });
  expect(body).toMatchObject({ code: 1, answer: JSON.stringify(['A. 蛋白质']), cost: 1 });
  expect(again.filter((x) => /similarity/.test(x))).toHaveLength(1);
});

test('a class asking one cut-off question: the next student skips the candidate search until the bank changes', async () => {
  const asked = '快速路径班级：线粒体是细胞进行有氧呼吸的主要场所，被称为细胞的';
  await seed([{ title: `${asked}什么车间`, type: 'single', options: ['动力车间', '养料制造车间'], answer: ['A'] }]);
  const index = ctx.app.ocs.bank.index;
  const search = jest.spyOn(index, 'candidates');
  try {
    const first = await userWithToken(ctx, 5);
    expect(await ask(ctx, first.token, asked, 'single', 'A. 动力车间\nB. 养料制造车间')).toMatchObject({
      code: 1,
      answer: JSON.stringify(['A. 动力车间']),
    });
    expect(search).toHaveBeenCalledTimes(1);
    const second = await userWithToken(ctx, 5);
    expect(await ask(ctx, second.token, asked, 'single', 'A. 动力车间\nB. 养料制造车间')).toMatchObject({
      code: 1,
      answer: JSON.stringify(['A. 动力车间']),
      cost: 1,
    });
    expect(search).toHaveBeenCalledTimes(1);

    // A closer question written since: the shortlist is searched again, and the next student gets it.
    await seed([{ title: `${asked}什么`, type: 'single', options: ['动力车间', '养料制造车间'], answer: ['B'] }]);
    const third = await userWithToken(ctx, 5);
    expect(await ask(ctx, third.token, asked, 'single', 'A. 动力车间\nB. 养料制造车间')).toMatchObject({
      code: 1,
      answer: JSON.stringify(['B. 养料制造车间']),
    });
    expect(search).toHaveBeenCalledTimes(2);
  } finally {
    search.mockRestore();
  }
});

describe('charges in one statement', () => {
  const charge = (userId: number, key: string, extra: Partial<ChargeInput> = {}): ChargeInput => ({
    userId,
    tokenId: null,
    price: 1,
    key,
    title: key,
    type: 'single',
    outcome: 'bank',
    questionId: null,
    modelId: null,
    answer: '答案',
    ...extra,
  });

  test('two charges of one user whose balance covers one: exactly one is charged', async () => {
    const { uid } = await userWithToken(ctx, 1);
    const [a, b] = await chargeMany(ctx.db, [charge(uid, 'batch-one-a'), charge(uid, 'batch-one-b')]);
    expect(a).toMatchObject({ status: 'charged', cost: 1, balance: 0 });
    expect(b).toMatchObject({ status: 'no_balance', balance: 0 });
    expect(await balanceOf(uid)).toBe(0);
    expect(await ledgerSum(uid)).toBe(0);
    const rows = await ctx.db
      .selectFrom('ocs_queries')
      .select(['title_hash', 'outcome', 'cost', 'answer'])
      .where('user_id', '=', uid)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { title_hash: 'batch-one-a', outcome: 'bank', cost: 1, answer: '答案' },
      { title_hash: 'batch-one-b', outcome: 'no_balance', cost: 0, answer: null },
    ]);
  });

  test('a repeat of the same question in one batch is the free repeat', async () => {
    const { uid } = await userWithToken(ctx, 5);
    const r = await chargeMany(ctx.db, [charge(uid, 'batch-repeat'), charge(uid, 'batch-repeat')]);
    expect(r.map((x) => x.status)).toEqual(['charged', 'cached']);
    expect(await balanceOf(uid)).toBe(4);
  });

  test('through the batcher: 100 concurrent charges over a balance of 30, across two users', async () => {
    const u1 = (await userWithToken(ctx, 30)).uid;
    const u2 = (await userWithToken(ctx, 30)).uid;
    const batcher = new ChargeBatcher(ctx.db);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => batcher.charge(charge(i % 2 ? u1 : u2, `batcher-${i}`))),
    );
    expect(results.filter((r) => r.status === 'charged')).toHaveLength(60);
    expect(results.filter((r) => r.status === 'no_balance')).toHaveLength(40);
    for (const u of [u1, u2]) {
      expect(await balanceOf(u)).toBe(0);
      expect(await ledgerSum(u)).toBe(0);
    }
    const rows = await ctx.db
      .selectFrom('ocs_queries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', 'in', [u1, u2])
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(100);
  });

  test('a stale element writes nothing; the others are charged; odd text survives the arrays', async () => {
    const { uid } = await userWithToken(ctx, 10);
    const id = await idOf(BANK[0]!.title);
    const odd = ['引号"与\\反斜杠', '{花括号,逗号}', 'NULL', '换行\n制表\t', '😀 emoji', "单'引号"];
    const r = await chargeMany(ctx.db, [
      charge(uid, 'stale-ok-1', { title: odd[0], answer: odd[1] }),
      charge(uid, 'stale-bad', { questionId: id, version: 1 }),
      charge(uid, 'stale-ok-2', { title: odd[2], answer: odd[3] }),
      charge(uid, 'stale-ok-3', { title: odd[4], answer: odd[5] }),
    ]);
    expect(r.map((x) => x.status)).toEqual(['charged', 'stale', 'charged', 'charged']);
    expect(await balanceOf(uid)).toBe(7);
    expect(await ledgerSum(uid)).toBe(7);
    const rows = await ctx.db
      .selectFrom('ocs_queries')
      .select(['title', 'answer'])
      .where('user_id', '=', uid)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { title: odd[0], answer: odd[1] },
      { title: odd[2], answer: odd[3] },
      { title: odd[4], answer: odd[5] },
    ]);
    // With the right version it is charged.
    const version = ctx.app.ocs.bank.exact.lookup(normalizeTitle(BANK[0]!.title))![0]!.version;
    const [ok] = await chargeMany(ctx.db, [charge(uid, 'stale-fresh', { questionId: id, version })]);
    expect(ok).toMatchObject({ status: 'charged', balance: 6 });
  });

  test('a batch that fails as a whole is retried charge by charge: only the bad one fails', async () => {
    const { uid } = await userWithToken(ctx, 10);
    const batcher = new ChargeBatcher(ctx.db);
    const results = await Promise.allSettled([
      batcher.charge(charge(uid, 'retry-1')),
      batcher.charge(charge(uid, 'retry-2')),
      batcher.charge(charge(2_000_000_000, 'retry-bad')), // no such user: a foreign-key violation
      batcher.charge(charge(uid, 'retry-3')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await balanceOf(uid)).toBe(7);
    expect(await ledgerSum(uid)).toBe(7);
  });
});

describe('the exact index', () => {
  const titles = new Map<number, string>();
  const make = () => new ExactIndex((id) => titles.get(id));
  const row = (id: number, norm: string, answer = ['a']) => {
    titles.set(id, norm);
    return {
      id,
      norm_title: norm,
      title: norm.toUpperCase(),
      type: 'single' as const,
      options: ['a', 'b'],
      answer,
      version: id,
    };
  };

  test('groups rows by title, replaces and removes them, and survives growth and rehashing', () => {
    const x = make();
    for (let i = 1; i <= 5000; i++) x.put(row(i, `t${i % 1000}`));
    expect(x.size).toBe(5000);
    expect(
      x
        .lookup('t7')!
        .map((r) => r.id)
        .sort((a, b) => a - b),
    ).toEqual([7, 1007, 2007, 3007, 4007]);
    x.put(row(1007, 't7', ['b']));
    expect(x.lookup('t7')!.find((r) => r.id === 1007)!.answer).toEqual(['b']);
    x.remove(2007);
    x.put({ ...row(3007, 't7'), status: 'wrong' });
    expect(
      x
        .lookup('t7')!
        .map((r) => r.id)
        .sort((a, b) => a - b),
    ).toEqual([7, 1007, 4007]);
    expect(x.size).toBe(4998);
  });

  test('a title written here is unknown until settled', () => {
    const x = make();
    x.put(row(1, 'same'));
    x.touch(2, 'same');
    expect(x.lookup('same')).toBeNull();
    x.put(row(2, 'same'));
    x.settle('same');
    expect(
      x
        .lookup('same')!
        .map((r) => r.id)
        .sort(),
    ).toEqual([1, 2]);
  });

  test('texts live in arena chunks: long rows, replacements and compaction keep every row intact', () => {
    const x = new ExactIndex((id) => titles.get(id), 64);
    const long = 'x'.repeat(200); // longer than a chunk
    for (let round = 0; round < 30; round++) {
      for (let i = 1; i <= 50; i++) {
        titles.set(1000 + i, `arena${i}`);
        x.put({
          id: 1000 + i,
          norm_title: `arena${i}`,
          title: i === 7 ? long : `题目${i}第${round}轮`,
          type: 'completion',
          options: [],
          answer: [`答${round}`, ''],
          version: round,
        });
      }
    }
    // 30 rounds of 50 rows wrote far more than is live: compaction gave it back.
    expect(x.arenaUnits).toBeLessThan(2_000);
    for (let i = 1; i <= 50; i++) {
      expect(x.lookup(`arena${i}`)).toEqual([
        {
          id: 1000 + i,
          norm_title: `arena${i}`,
          title: i === 7 ? long : `题目${i}第29轮`,
          type: 'completion',
          options: [],
          answer: ['答29', ''],
          version: 29,
        },
      ]);
    }
  });

  test('answers that are not a subset of the options are kept as text', () => {
    const x = make();
    titles.set(9, 'free');
    x.put({
      id: 9,
      norm_title: 'free',
      title: 'Free',
      type: 'any',
      options: ['x', 'y'],
      answer: ['y', 'x'],
      version: 1,
    });
    expect(x.lookup('free')![0]).toMatchObject({ options: ['x', 'y'], answer: ['y', 'x'] });
  });
});

test('a miss with no AI model and no upstream costs the bank read and its log row, nothing else; a model added here is asked at once', async () => {
  const { token } = await userWithToken(ctx, 5);
  const title = '快速路径：这道题不在题库里，也没有模型可问';
  let body: unknown;
  // The first miss may read whether a model exists; the next one within the cache's lifetime does not.
  await ask(ctx, token, `${title}（预热）`, 'judgement');
  const statements = await statementsDuring(async () => {
    body = await ask(ctx, token, title, 'judgement');
  });
  expect(body).toMatchObject({ code: 0, msg: '题库中未找到该题，且当前没有可用的 AI 模型' });
  expect(
    statements.filter((s) => /ocs_models|ocs_providers|ocs_queries.*created_at/s.test(s) && !/insert/i.test(s)),
  ).toEqual([]);
  expect(statements.filter((s) => /^\s*insert into "?ocs_queries/i.test(s))).toHaveLength(1);
  expect(statements.length).toBeLessThanOrEqual(3);

  // An administrator adds a model on this instance: the very next miss asks it (the cache is dropped).
  const fake = await startFakeOpenAi();
  try {
    const admin = await adminClient(ctx);
    await createModel(admin, await createProvider(admin, fake.url, 'fast-path-fake'), { price: 1 });
    expect(await ask(ctx, token, `${title}（有模型了）`, 'judgement')).toMatchObject({ code: 1, source: 'ai' });
  } finally {
    await fake.close();
  }
});
