/**
 * AI answering through the real OCS query API, against the fake OpenAI-compatible server: charging,
 * the answer kept in the bank, no charge for any failure (timeout included, without sleeping), parsing
 * per type, one provider call for ten users asking at once, the daily cap, the strategies, an empty
 * wallet, and the API key in no response and no log line.
 */
import { prepareQuestion } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai';
import { FAKES_ON_LOOPBACK, startTestApp, type Client, type TestContext } from '../helpers';
import {
  API_KEY,
  adminClient,
  answerer,
  balanceOf,
  createModel,
  createProvider,
  ledgerOf,
  ledgerSum,
  query,
  until,
  userWithToken,
} from './ai-helpers';

let ctx: TestContext;
let fake: FakeOpenAi;
let admin: Client;
let modelId: number;
const PRICE = 3;

beforeAll(async () => {
  [ctx, fake] = await Promise.all([startTestApp(FAKES_ON_LOOPBACK), startFakeOpenAi()]);
  admin = await adminClient(ctx);
  modelId = await createModel(admin, await createProvider(admin, fake.url), { price: PRICE });
});
afterAll(async () => {
  await fake.close();
  await ctx.close();
});
beforeEach(() => fake.script({ kind: 'auto' }));

const CAPITAL = { title: '法国的首都是哪座城市？', type: 'single', options: 'A. 伦敦\nB. 巴黎\nC. 柏林' };
const setPrefs = (client: Client, body: object) =>
  client.request({ method: 'PUT', url: '/api/ocs/preferences', payload: body });

test('an AI answer charges the model price with a ledger row, is kept as ai/unverified, and is a bank hit next time', async () => {
  const { uid, token } = await userWithToken(ctx, 10);
  fake.script({ kind: 'answer', text: '巴黎' });
  const calls = fake.calls.length;
  const res = await query(ctx, { token, ...CAPITAL });
  expect(res.json()).toEqual({
    code: 1,
    question: '法国的首都是哪座城市？',
    answer: JSON.stringify(['B. 巴黎']),
    source: 'ai',
    confidence: 0.7,
    cost: PRICE,
    balance: 10 - PRICE,
    queryId: expect.any(Number),
  });
  expect(fake.calls.length).toBe(calls + 1);
  expect(fake.calls.at(-1)).toMatchObject({ model: 'fake-model', authorization: `Bearer ${API_KEY}` });
  expect(await balanceOf(ctx, uid)).toBe(10 - PRICE);
  const ledger = await ledgerOf(ctx, uid);
  expect(ledger.at(-1)!.kind).toBe('charge');
  expect(Number(ledger.at(-1)!.amount)).toBe(-PRICE);
  expect(await ledgerSum(ctx, uid)).toBe(10 - PRICE);
  const q = await ctx.db.selectFrom('ocs_queries').selectAll().where('user_id', '=', uid).executeTakeFirstOrThrow();
  expect(q).toMatchObject({ outcome: 'ai', cost: PRICE, model_id: modelId, answer: JSON.stringify(['B. 巴黎']) });
  const stored = await ctx.db
    .selectFrom('ocs_questions')
    .selectAll()
    .where('title', '=', '法国的首都是哪座城市？')
    .execute();
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ source: 'ai', status: 'unverified', answer: ['巴黎'] });
  expect(Number(q.question_id)).toBe(Number(stored[0]!.id));

  // Another user, options shuffled: the bank answers, the provider is not asked.
  const other = await userWithToken(ctx, 10);
  const again = await query(ctx, {
    token: other.token,
    title: CAPITAL.title,
    type: 'single',
    options: 'A. 柏林\nB. 伦敦\nC. 巴黎',
  });
  expect(again.json()).toMatchObject({
    code: 1,
    answer: JSON.stringify(['C. 巴黎']),
    source: 'ai',
    confidence: 0.7,
    cost: 1,
    balance: 9,
  });
  expect(fake.calls.length).toBe(calls + 1);
});

describe('a failing provider costs nothing and answers code 0 with a clear message', () => {
  const cases: Array<[string, Parameters<FakeOpenAi['script']>[0], RegExp]> = [
    ['429', { kind: 'status', status: 429 }, /繁忙（429）.*未扣费/],
    ['500', { kind: 'status', status: 500 }, /出错（500）.*未扣费/],
    ['garbage', { kind: 'garbage' }, /无法识别.*未扣费/],
    ['empty', { kind: 'empty' }, /没有给出答案.*未扣费/],
    ['unparseable', { kind: 'answer', text: '这道题我也不会' }, /无法解析为选项.*未扣费/],
  ];
  test.each(cases)('%s', async (name, mode, msg) => {
    const { uid, token } = await userWithToken(ctx, 10);
    fake.script(mode);
    const calls = fake.calls.length;
    const res = await query(ctx, {
      token,
      title: `失败场景 ${name}：下列哪项是质数？`,
      type: 'single',
      options: '4\n6\n7',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, msg: expect.stringMatching(msg) });
    expect(fake.calls.length).toBe(calls + 1);
    expect(await balanceOf(ctx, uid)).toBe(10);
    expect(await ledgerOf(ctx, uid)).toHaveLength(1); // the top-up only
    const q = await ctx.db.selectFrom('ocs_queries').select(['outcome', 'cost']).where('user_id', '=', uid).execute();
    expect(q).toEqual([{ outcome: 'error', cost: 0 }]);
    const stored = await ctx.db
      .selectFrom('ocs_questions')
      .select('id')
      .where('title', 'like', `失败场景 ${name}%`)
      .execute();
    expect(stored).toHaveLength(0);
  });

  test('timeout: a stalled provider is given up after the model timeout', async () => {
    await ctx.db.updateTable('ocs_models').set({ timeout_ms: 300 }).where('id', '=', modelId).execute();
    try {
      const { uid, token } = await userWithToken(ctx, 10);
      fake.script({ kind: 'stall' });
      const res = await query(ctx, { token, title: '超时场景：地球有几颗天然卫星？', type: 'completion' });
      expect(res.json()).toEqual({ code: 0, msg: 'AI 服务超时，未扣费' });
      expect(await balanceOf(ctx, uid)).toBe(10);
      expect(await ledgerOf(ctx, uid)).toHaveLength(1);
    } finally {
      fake.release();
      await ctx.db.updateTable('ocs_models').set({ timeout_ms: 60_000 }).where('id', '=', modelId).execute();
    }
  });

  test('each failure is logged with provider, model and kind', () => {
    const lines = ctx.logs.filter((l) => l.includes('ocs ai call failed')).map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(lines.map((l) => l.kind)).toEqual(
      expect.arrayContaining(['rate_limited', 'provider_error', 'empty', 'unparseable', 'timeout']),
    );
    expect(lines.find((l) => l.kind === 'rate_limited')).toMatchObject({
      provider: 'fake',
      model: 'fake-model',
      status: 429,
      latencyMs: expect.any(Number),
    });
  });
});

describe('replies are parsed into the caller’s answer format', () => {
  const cases: Array<[string, string, Record<string, string>, string]> = [
    // Choices come back as the caller's option lines, labels and all; several pieces as a JSON array.
    ['single by letter', 'B', { type: 'single', options: 'A. 水星\nB. 金星\nC. 火星' }, '["B. 金星"]'],
    ['multiple by letters', 'A、C', { type: 'multiple', options: 'A. 氢\nB. 铁\nC. 氦\nD. 铜' }, '["A. 氢","C. 氦"]'],
    ['multiple by texts', '氦\n氢', { type: 'multiple', options: '氢\n铁\n氦\n铜' }, '["氢","氦"]'],
    ['judgement', '对', { type: 'judgement' }, '正确'],
    ['judgement false', '×', { type: 'judgement' }, '错误'],
    ['completion', '1. H2O\n2. O2', { type: 'completion' }, '["H2O","O2"]'],
  ];
  test.each(cases)('%s', async (name, reply, params, answer) => {
    const { token } = await userWithToken(ctx, 10);
    fake.script({ kind: 'answer', text: reply });
    const res = await query(ctx, { token, title: `解析测试（${name}）的题目`, ...params });
    expect(res.json()).toMatchObject({ code: 1, source: 'ai', answer });
  });
});

test('ten users asking the same question at once make one provider call, and each is charged once', async () => {
  const users = await Promise.all(Array.from({ length: 10 }, () => userWithToken(ctx, 10)));
  const ai = answerer(ctx);
  const before = { calls: fake.calls.length, joined: ai.stats.joined };
  fake.script({ kind: 'stall' });
  // release() answers stalled calls in auto mode, which replies with the prompt's FAKE_ANSWER line.
  const title = '并发场景：太阳系中最大的行星是？\nFAKE_ANSWER: 木星';
  const pending = users.map((u) => query(ctx, { token: u.token, title, type: 'single', options: '地球\n木星\n土星' }));
  await until(
    () => fake.calls.length === before.calls + 1 && ai.stats.joined === before.joined + 9,
    'ten callers on one call',
  );
  fake.release();
  const results = (await Promise.all(pending)).map((r) => r.json());
  expect(fake.calls.length).toBe(before.calls + 1);
  for (const r of results)
    expect(r).toMatchObject({
      code: 1,
      source: 'ai',
      answer: JSON.stringify(['木星']),
      cost: PRICE,
      balance: 10 - PRICE,
    });
  for (const u of users) {
    expect(await balanceOf(ctx, u.uid)).toBe(10 - PRICE);
    expect((await ledgerOf(ctx, u.uid)).filter((l) => l.kind === 'charge')).toHaveLength(1);
  }
});

test('the daily AI cap stops AI answers before the provider is asked', async () => {
  const { client, uid, token } = await userWithToken(ctx, 20);
  expect((await setPrefs(client, { dailyAiCap: 5 })).statusCode).toBe(200);
  fake.script({ kind: 'answer', text: '正确' });
  const first = await query(ctx, { token, title: '上限场景一：水在标准大气压下 100 摄氏度沸腾。', type: 'judgement' });
  expect(first.json()).toMatchObject({ code: 1, cost: PRICE });
  const calls = fake.calls.length;
  const second = await query(ctx, { token, title: '上限场景二：铁在常温下是液体。', type: 'judgement' });
  expect(second.json()).toEqual({
    code: 0,
    msg: expect.stringMatching(/今日 AI 消费已达上限.*已用 3 积分.*上限 5 积分/),
  });
  expect(fake.calls.length).toBe(calls);
  expect(await balanceOf(ctx, uid)).toBe(20 - PRICE);
  expect((await client.get('/api/ocs/preferences')).json().data).toMatchObject({ dailyAiCap: 5, todayAiSpent: PRICE });
  // Raising the cap lets the next one through.
  await setPrefs(client, { dailyAiCap: null });
  expect(
    (await query(ctx, { token, title: '上限场景二：铁在常温下是液体。', type: 'judgement' })).json(),
  ).toMatchObject({ code: 1 });
});

describe('strategies', () => {
  const BANKED = { title: '策略场景：中华人民共和国成立于哪一年？', type: 'single', options: '1949\n1950\n1921' };
  beforeAll(async () => {
    const p = prepareQuestion({
      title: BANKED.title,
      type: 'single',
      options: ['1949', '1950', '1921'],
      answer: ['1949'],
    });
    if ('error' in p) throw new Error(p.error);
    const r = await upsertQuestions(ctx.db, [p], 'import');
    ctx.app.ocs.bank.index.add(r.rows[0]!.id, r.rows[0]!.norm_title);
  });

  test('bank only: a miss stays a miss and the provider is not asked', async () => {
    const { client, token } = await userWithToken(ctx, 10);
    await setPrefs(client, { strategy: 'bank' });
    const calls = fake.calls.length;
    expect((await query(ctx, { token, title: '策略场景：仅题库时没有的题目' })).json()).toEqual({
      code: 0,
      msg: '题库中未找到该题',
    });
    expect((await query(ctx, { token, ...BANKED })).json()).toMatchObject({
      code: 1,
      source: 'import',
      answer: JSON.stringify(['1949']),
    });
    expect(fake.calls.length).toBe(calls);
  });

  test('AI only: even a bank question goes to the model, and the imported row is left alone', async () => {
    const { client, token } = await userWithToken(ctx, 10);
    await setPrefs(client, { strategy: 'ai' });
    fake.script({ kind: 'answer', text: '1950' });
    const calls = fake.calls.length;
    expect((await query(ctx, { token, ...BANKED })).json()).toMatchObject({
      code: 1,
      source: 'ai',
      answer: JSON.stringify(['1950']),
      cost: PRICE,
    });
    expect(fake.calls.length).toBe(calls + 1);
    const row = await ctx.db
      .selectFrom('ocs_questions')
      .selectAll()
      .where('title', '=', BANKED.title)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source: 'import', status: 'verified', answer: ['1949'] });
  });

  test('bank then AI (default): the bank answers what it knows, the model the rest', async () => {
    const { token } = await userWithToken(ctx, 10);
    fake.script({ kind: 'answer', text: '正确' });
    const calls = fake.calls.length;
    expect((await query(ctx, { token, ...BANKED })).json()).toMatchObject({ code: 1, source: 'import' });
    expect(fake.calls.length).toBe(calls);
    expect(
      (await query(ctx, { token, title: '策略场景：月球是地球的卫星。', type: 'judgement' })).json(),
    ).toMatchObject({ code: 1, source: 'ai' });
    expect(fake.calls.length).toBe(calls + 1);
  });
});

test('a wallet that cannot pay the model price is refused before the provider is asked', async () => {
  const { uid, token } = await userWithToken(ctx, 2);
  const calls = fake.calls.length;
  const res = await query(ctx, { token, title: '余额场景：光年是时间单位。', type: 'judgement' });
  expect(res.json()).toEqual({
    code: 0,
    msg: `余额不足：当前 2 积分，本题需要 ${PRICE} 积分。请到「免费领取」领取积分或使用兑换码`,
  });
  expect(fake.calls.length).toBe(calls);
  expect(await balanceOf(ctx, uid)).toBe(2);
  const q = await ctx.db.selectFrom('ocs_queries').select(['outcome', 'model_id']).where('user_id', '=', uid).execute();
  expect(q).toEqual([{ outcome: 'no_balance', model_id: modelId }]);
});

test('the API key appears in no API response and no log line', async () => {
  const { client } = await userWithToken(ctx, 0);
  fake.script({ kind: 'answer', text: '北京' });
  const bodies = [
    (await admin.get('/api/ocs/admin/providers')).body,
    (await admin.get('/api/ocs/admin/models')).body,
    (await admin.post(`/api/ocs/admin/models/${modelId}/test`, { type: 'single' })).body,
    (
      await admin.request({
        method: 'PATCH',
        url: `/api/ocs/admin/models/${modelId}`,
        payload: { displayName: '测试模型' },
      })
    ).body,
    (await client.get('/api/ocs/models')).body,
    (await client.get('/api/ocs/preferences')).body,
    (await admin.get('/api/user/admin/audit?pageSize=100')).body,
  ];
  expect(JSON.parse(bodies[0]!).data[0].apiKeyMasked).toBe('sk-t…cdef');
  expect(JSON.parse(bodies[2]!).data).toMatchObject({ ok: true, answer: '北京' });
  for (const b of bodies) {
    expect(b).not.toContain(API_KEY);
    expect(b).not.toContain('SECRET-key');
  }
  expect(ctx.logs.length).toBeGreaterThan(0);
  for (const line of ctx.logs) {
    expect(line).not.toContain(API_KEY);
    expect(line).not.toContain('SECRET-key');
  }
});
