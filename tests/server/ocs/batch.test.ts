/**
 * POST /api/ocs/query/batch: each question answered exactly as /api/ocs/query answers it (bank hits,
 * misses, bad items, the 10-minute repeat, single flight with concurrent single queries), charged only
 * when answered and in page order; a balance that runs out partway stops the rest of the page (余额不足)
 * while free repeats still answer; 101 questions are refused whole; the ledger invariant under
 * concurrent batches.
 */
import { sql } from 'kysely';
import type { QuestionInput } from '../../../server/modules/ocs/bank/question';
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai';
import { FAKES_ON_LOOPBACK, startTestApp, type TestContext } from '../helpers';
import { adminClient, createModel, createProvider, until, userWithToken } from './ai-helpers';
import { lowBalanceNotices, seedQuestions } from './admin-fixtures';

let ctx: TestContext;
let fake: FakeOpenAi;

const BANK: QuestionInput[] = [
  { title: '批量：中华人民共和国的首都是哪座城市？', type: 'single', options: ['上海', '北京', '广州'], answer: ['B'] },
  { title: '批量：下列属于哺乳动物的有', type: 'multiple', options: ['鲸', '鲨鱼', '蝙蝠'], answer: ['鲸', '蝙蝠'] },
  { title: '批量：地球绕太阳公转一周约需 365 天。', type: 'judgement', options: [], answer: ['对'] },
  { title: '批量：水的化学式是____。', type: 'completion', options: [], answer: ['H2O'] },
  ...Array.from({ length: 30 }, (_, i) => ({
    title: `批量余额题第${i}号：请选择编号${i}对应的选项`,
    type: 'single' as const,
    options: ['甲', '乙'],
    answer: ['A'],
  })),
];
const Q = {
  capital: { title: '1. 批量：中华人民共和国的首都是哪座城市', type: 'single', options: 'A. 上海\nB. 北京\nC. 广州' },
  mammals: { title: '批量：下列属于哺乳动物的有？', type: 'multiple', options: 'A、蝙蝠\nB、鲨鱼\nC、鲸' },
  earth: { title: '批量：地球绕太阳公转一周约需365天', type: 'judgement' },
  water: { title: '<p>批量：水的化学式是____</p>', type: 'completion' },
  miss: { title: '批量：一个题库里没有的问题，关于量子色动力学' },
};
const numbered = (i: number) => ({
  title: `批量余额题第${i}号：请选择编号${i}对应的选项`,
  type: 'single',
  options: 'A. 甲\nB. 乙',
});

beforeAll(async () => {
  [ctx, fake] = await Promise.all([startTestApp(FAKES_ON_LOOPBACK), startFakeOpenAi()]);
  await seedQuestions(ctx, BANK);
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
});
afterAll(async () => {
  fake.release();
  await fake.close();
  await ctx.close();
});

const batch = (token: string | undefined, questions: unknown, extra: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query/batch',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra },
    payload: { questions },
  });
const single = (token: string, params: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/api/ocs/query', query: { token, ...params } }).then((r) => r.json());
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
const queriesOf = (uid: number) =>
  ctx.db.selectFrom('ocs_queries').select(['outcome', 'cost']).where('user_id', '=', uid).orderBy('id').execute();

test('a page is answered question by question, in order, exactly as the single endpoint answers', async () => {
  const a = await userWithToken(ctx, 20);
  const b = await userWithToken(ctx, 20);
  const page = [Q.capital, Q.mammals, { title: '' }, Q.earth, 'not an object', Q.water, Q.miss];
  const res = await batch(a.token, page);
  expect(res.statusCode).toBe(200);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  const { code, results } = res.json();
  expect(code).toBe(1);
  expect(results).toHaveLength(page.length);
  // The same questions one by one, by another user with the same balance.
  const one: unknown[] = [];
  for (const q of page) {
    one.push(
      typeof q === 'object' ? await single(b.token, q as Record<string, string>) : { code: 0, msg: '题目格式不正确' },
    );
  }
  const strip = (r: Record<string, unknown>) => ({ ...r, queryId: r.queryId === undefined ? undefined : 'id' });
  expect(results.map(strip)).toEqual(one.map((r) => strip(r as Record<string, unknown>)));
  expect(results.map((r: { code: number; answer?: string }) => r.answer ?? null)).toEqual([
    JSON.stringify(['B. 北京']),
    JSON.stringify(['A、蝙蝠', 'C、鲸']),
    null,
    '正确',
    null,
    JSON.stringify(['H2O']),
    null,
  ]);
  expect(results[2]).toEqual({ code: 0, msg: '题目不能为空' });
  expect(results[6]).toEqual({ code: 0, msg: expect.stringMatching(/未找到/) });
  // Charged only what was answered: 4 points, one ledger row each, the miss logged free.
  expect(await balanceOf(a.uid)).toBe(16);
  expect(await ledgerSum(a.uid)).toBe(16);
  expect((await queriesOf(a.uid)).map((q) => `${q.outcome}:${q.cost}`).sort()).toEqual(
    ['bank:1', 'bank:1', 'bank:1', 'bank:1', 'miss:0'].sort(),
  );
});

test('the 10-minute repeat and a question twice on one page are free', async () => {
  const { uid, token } = await userWithToken(ctx, 10);
  expect(await single(token, Q.capital)).toMatchObject({ code: 1, cost: 1 });
  const { results } = (await batch(token, [Q.capital, Q.earth, Q.earth])).json();
  expect(results.map((r: { code: number; cost: number; answer: string }) => [r.code, r.cost, r.answer])).toEqual([
    [1, 0, JSON.stringify(['B. 北京'])],
    [1, 1, '正确'],
    [1, 0, '正确'],
  ]);
  expect(await balanceOf(uid)).toBe(8);
  expect(await ledgerSum(uid)).toBe(8);
});

test('the balance runs out partway: answered in order until it does, the rest say 余额不足, free repeats still answer', async () => {
  const { uid, token } = await userWithToken(ctx, 3);
  expect(await single(token, numbered(0))).toMatchObject({ code: 1, cost: 1 }); // balance 2
  const page = [numbered(1), numbered(2), numbered(3), numbered(0), numbered(4)];
  const { results } = (await batch(token, page)).json();
  expect(
    results.map((r: { code: number; cost?: number; msg?: string }) => (r.code === 1 ? `ok:${r.cost}` : r.msg)),
  ).toEqual([
    'ok:1',
    'ok:1',
    expect.stringMatching(/^余额不足/),
    'ok:0', // asked within 10 minutes: free, still answered
    expect.stringMatching(/^余额不足/),
  ]);
  expect(await balanceOf(uid)).toBe(0);
  expect(await ledgerSum(uid)).toBe(0);
});

test('after one question the balance cannot pay, a cheaper one further down is refused too (in page order)', async () => {
  const admin = await adminClient(ctx);
  const model = await createModel(admin, await createProvider(admin, fake.url, 'batch-ai'), { price: 3 });
  expect(model).toBeGreaterThan(0);
  fake.script({ kind: 'answer', text: '正确' });
  const { uid, token } = await userWithToken(ctx, 4);
  const page = [
    numbered(10), // bank, 1 → 3 left
    numbered(11), // bank, 1 → 2 left
    { title: '批量：AI 才知道的判断题，光速是常数。', type: 'judgement' }, // AI, 3 > 2: 余额不足
    numbered(12), // bank, 1 would fit: refused, the page ran out above
  ];
  const { results } = (await batch(token, page)).json();
  expect(results.map((r: { code: number; msg?: string }) => r.code)).toEqual([1, 1, 0, 0]);
  expect(results[2].msg).toMatch(/^余额不足/);
  expect(results[3].msg).toMatch(/^余额不足/);
  expect(await balanceOf(uid)).toBe(2);
  expect(await ledgerSum(uid)).toBe(2);
  await ctx.db.updateTable('ocs_models').set({ enabled: false }).where('id', '=', model).execute();
});

test('101 questions, a body without a list, no token: refused whole, nothing charged or logged', async () => {
  const { uid, token } = await userWithToken(ctx, 500);
  const many = Array.from({ length: 101 }, (_, i) => numbered(i % 30));
  expect((await batch(token, many)).json()).toEqual({
    code: 0,
    msg: '一次最多查询 100 道题（收到 101 道），请分批提交；本次未查询、未扣费',
  });
  expect((await batch(token, 'a string')).json()).toEqual({ code: 0, msg: expect.stringMatching(/questions/) });
  expect((await batch(token, [])).json()).toEqual({ code: 0, msg: '没有要查询的题目' });
  expect((await batch(undefined, [Q.capital])).json()).toEqual({ code: 0, msg: expect.stringMatching(/令牌/) });
  expect((await batch('pt_wrongwrongwrongwrongwrongwrongwr', [Q.capital])).json()).toMatchObject({ code: 0 });
  const malformed = await ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query/batch',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    payload: '{"questions": [',
  });
  expect(malformed.statusCode).toBe(200);
  expect(malformed.json()).toEqual({ code: 0, msg: expect.any(String) });
  expect(await balanceOf(uid)).toBe(500);
  expect(await queriesOf(uid)).toEqual([]);
  // 100 is fine, and a token in the body works as for /api/ocs/query.
  const hundred = await ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query/batch',
    payload: { token, questions: Array.from({ length: 100 }, (_, i) => numbered(i % 30)) },
  });
  expect(hundred.json().results).toHaveLength(100);
  expect(await balanceOf(uid)).toBe(470);
  const preflight = await ctx.app.inject({ method: 'OPTIONS', url: '/api/ocs/query/batch' });
  expect(preflight.statusCode).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('*');
});

test('single flight across a batch and a single query of the same question: one provider call, one charge', async () => {
  const admin = await adminClient(ctx);
  const model = await createModel(admin, await createProvider(admin, fake.url, 'flight-ai'), { price: 2 });
  fake.script({ kind: 'stall' });
  const { uid, token } = await userWithToken(ctx, 10);
  const q = { title: '批量：单飞测试，太阳从东边升起。', type: 'judgement' };
  const calls = fake.calls.length;
  const inBatch = batch(token, [q]);
  await until(() => fake.calls.length > calls, 'the provider call');
  const alone = single(token, q);
  await new Promise((r) => setTimeout(r, 50));
  fake.script({ kind: 'answer', text: '正确' });
  fake.release();
  const [b, s] = await Promise.all([inBatch.then((r) => r.json().results[0]), alone]);
  expect(b).toMatchObject({ code: 1, answer: '正确', cost: 2 });
  expect(s).toMatchObject({ code: 1, answer: '正确', cost: 0 });
  expect(fake.calls.length).toBe(calls + 1);
  expect(await balanceOf(uid)).toBe(8);
  await ctx.db.updateTable('ocs_models').set({ enabled: false }).where('id', '=', model).execute();
});

test('concurrent batches over a balance of 50: exactly 50 charged, never below zero, ledger = balance, one low-balance notice', async () => {
  const { uid, token } = await userWithToken(ctx, 50);
  const pages = Array.from({ length: 8 }, (_, p) =>
    Array.from({ length: 10 }, (_, i) => ({
      title: `批量并发第${p}页第${i}题：没有的题目也行吗`,
      type: 'single',
      options: 'A. 甲\nB. 乙',
    })),
  );
  // Bank answers for every one of them.
  await seedQuestions(
    ctx,
    pages.flat().map((q) => ({ ...q, type: 'single', options: ['甲', '乙'], answer: ['B'] })),
  );
  const answered = (await Promise.all(pages.map((p) => batch(token, p).then((r) => r.json().results)))).flat();
  expect(answered.filter((r: { code: number }) => r.code === 1)).toHaveLength(50);
  expect(answered.filter((r: { code: number; msg?: string }) => r.code === 0 && /余额不足/.test(r.msg!))).toHaveLength(
    30,
  );
  expect(await balanceOf(uid)).toBe(0);
  expect(await ledgerSum(uid)).toBe(0);
  // The one debit from 10 to 9, inside whichever page made it, told the owner once that points run low.
  expect(await lowBalanceNotices(ctx, uid)).toEqual([
    expect.objectContaining({ title: 'OCS 积分余额不足 10 次题库答题' }),
  ]);
});
