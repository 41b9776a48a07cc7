/**
 * The OCS query API as the script calls it: token placement, request shapes, answers in the caller's
 * option texts, charging (one statement with its ledger row), the 10-minute cache, refusals that cost
 * nothing, bad input, CORS, the rate limit, and the ledger invariant under 200 concurrent queries.
 */
import { sql } from 'kysely';
import { HIT_COUNT } from '../../../server/modules/ocs/bank/admin';
import { HitCounter } from '../../../server/modules/ocs/bank/hit-counter';
import type { QuestionInput } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { ChargeBatcher } from '../../../server/modules/ocs/wallet/charge';
import { parseQuestion } from '../../../server/modules/ocs/query/question';
import { OcsService } from '../../../server/modules/ocs/query/service';
import { loggedInClient, startTestApp, type TestContext } from '../helpers';
import { lowBalanceNotices, preparedQuestion, seedQuestions } from './admin-fixtures';

let ctx: TestContext;

const BANK: QuestionInput[] = [
  {
    title: '中华人民共和国的首都是哪座城市？',
    type: 'single',
    options: ['上海', '北京', '广州', '深圳'],
    answer: ['B'],
  },
  { title: '下列属于哺乳动物的有', type: 'multiple', options: ['鲸', '鲨鱼', '蝙蝠', '企鹅'], answer: ['鲸', '蝙蝠'] },
  { title: '地球绕太阳公转一周约需 365 天。', type: 'judgement', options: [], answer: ['对'] },
  { title: '水的化学式是____，氧气的化学式是____。', type: 'completion', options: [], answer: ['H2O', 'O2'] },
];

async function userWithToken(balance: number) {
  const { client, uid } = await loggedInClient(ctx);
  const token = (
    await client.post('/api/user/tokens', { name: 'ocs', scopes: ['ocs:query'], expiresInDays: null })
  ).json().data.token as string;
  if (balance > 0) await credit(ctx.db, uid, 'topup', balance, '测试充值');
  return { client, uid, token };
}

const ledgerSum = async (uid: number) =>
  Number(
    (
      await sql<{ s: number }>`select coalesce(sum(amount), 0) as s from ocs_ledger where user_id = ${uid}`.execute(
        ctx.db,
      )
    ).rows[0]!.s,
  );
const balanceOf = async (uid: number) =>
  Number(
    (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst())?.balance ??
      0,
  );

beforeAll(async () => {
  ctx = await startTestApp();
  await seedQuestions(ctx, BANK);
});
afterAll(async () => {
  await ctx.close();
});

const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: '/api/ocs/query', query: params, headers });

test('a bank hit by query string answers with the option text, charges 1 point and writes the ledger', async () => {
  const { uid, token } = await userWithToken(10);
  const res = await get({
    token,
    title: '1. 中华人民共和国的首都是哪座城市',
    type: 'single',
    options: 'A. 上海\nB. 北京\nC. 广州\nD. 深圳',
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.json()).toEqual({
    code: 1,
    question: '中华人民共和国的首都是哪座城市？',
    // The option as the page shows it, label and all, in the JSON array the script takes whole.
    answer: JSON.stringify(['B. 北京']),
    source: 'import',
    confidence: 0.95,
    queryId: expect.any(Number),
    cost: 1,
    balance: 9,
  });
  expect(await balanceOf(uid)).toBe(9);
  expect(await ledgerSum(uid)).toBe(9);
  // Hit counts are written in batches.
  await ctx.app.ocs.hits.flush();
  const row = await ctx.db
    .selectFrom('ocs_questions')
    .select(HIT_COUNT.as('hit_count'))
    .where('title', '=', '中华人民共和国的首都是哪座城市？')
    .executeTakeFirstOrThrow();
  expect(row.hit_count).toBe(1);
});

test('hit counts are written in chunks of questions, every count kept', async () => {
  const ids = (
    await ctx.db
      .selectFrom('ocs_questions')
      .select(['id', HIT_COUNT.as('hit_count')])
      .orderBy('id')
      .limit(4)
      .execute()
  ).map((r) => ({ id: Number(r.id), before: r.hit_count }));
  expect(ids).toHaveLength(4);
  const counter = new HitCounter(ctx.db);
  ids.forEach(({ id }, i) => {
    for (let k = 0; k <= i; k++) counter.add(id);
  });
  // Three questions per statement: two statements for four questions, the second a short one.
  await counter.flush(3);
  const after = await ctx.db
    .selectFrom('ocs_questions')
    .select(['id', HIT_COUNT.as('hit_count')])
    .where(
      'id',
      'in',
      ids.map((r) => r.id),
    )
    .orderBy('id')
    .execute();
  expect(after.map((r) => r.hit_count)).toEqual(ids.map((r, i) => r.before + i + 1));
  // Nothing is left to write.
  await counter.flush(3);
  const again = await ctx.db
    .selectFrom('ocs_questions')
    .select(HIT_COUNT.as('hit_count'))
    .where('id', '=', ids[3]!.id)
    .executeTakeFirstOrThrow();
  expect(again.hit_count).toBe(ids[3]!.before + 4);
});

test('a hit on a question deleted before the flush is dropped; the other counts are written', async () => {
  const [kept, gone] = await Promise.all(
    ['留下的题目（计数）', '删除的题目（计数）'].map(async (title) => {
      await upsertQuestions(
        ctx.db,
        [preparedQuestion({ title, type: 'single', options: ['甲', '乙'], answer: ['甲'] })],
        'import',
      );
      const r = await ctx.db
        .selectFrom('ocs_questions')
        .select('id')
        .where('title', '=', title)
        .executeTakeFirstOrThrow();
      return Number(r.id);
    }),
  );
  const counter = new HitCounter(ctx.db);
  counter.add(gone!);
  counter.add(kept!);
  counter.add(kept!);
  await ctx.db.deleteFrom('ocs_questions').where('id', '=', gone!).execute();
  await counter.flush();
  const rows = await ctx.db
    .selectFrom('ocs_question_hits')
    .select(['question_id', 'hits'])
    .where('question_id', 'in', [kept!, gone!])
    .execute();
  expect(rows.map((r) => [Number(r.question_id), r.hits])).toEqual([[kept, 2]]);
  // Deleting a question takes its count with it.
  await ctx.db.deleteFrom('ocs_questions').where('id', '=', kept!).execute();
  expect(
    await ctx.db.selectFrom('ocs_question_hits').select('hits').where('question_id', '=', kept!).executeTakeFirst(),
  ).toBeUndefined();
});

test('token by Bearer, JSON body, form body and plain-text JSON all work', async () => {
  const { token } = await userWithToken(10);
  const title = '下列属于哺乳动物的有';
  const options = 'A、企鹅\nB、蝙蝠\nC、鲨鱼\nD、鲸';
  const bearer = await ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query',
    headers: { authorization: `Bearer ${token}` },
    payload: { title, type: 'multiple', options },
  });
  // Shuffled options: the answer is in the caller's order and texts.
  expect(bearer.json()).toMatchObject({ code: 1, answer: JSON.stringify(['B、蝙蝠', 'D、鲸']) });
  const form = await ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, title: '地球绕太阳公转一周约需365天', type: 'judgement' }).toString(),
  });
  expect(form.json()).toMatchObject({ code: 1, answer: '正确' });
  const text = await ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query',
    headers: { 'content-type': 'text/plain' },
    payload: JSON.stringify({ token, title: '<p>水的化学式是____，氧气的化学式是____</p>', type: 'completion' }),
  });
  expect(text.json()).toMatchObject({ code: 1, answer: JSON.stringify(['H2O', 'O2']) });
});

test('the same question within 10 minutes is answered from cache without a second charge', async () => {
  const { uid, token } = await userWithToken(5);
  const params = { token, title: '中华人民共和国的首都是哪座城市', options: 'A. 上海\nB. 北京\nC. 广州\nD. 深圳' };
  expect((await get(params)).json()).toMatchObject({ code: 1, cost: 1, balance: 4 });
  expect((await get(params)).json()).toMatchObject({
    code: 1,
    cost: 0,
    balance: 4,
    answer: JSON.stringify(['B. 北京']),
  });
  expect(await balanceOf(uid)).toBe(4);
  const outcomes = await ctx.db
    .selectFrom('ocs_queries')
    .select('outcome')
    .where('user_id', '=', uid)
    .orderBy('id')
    .execute();
  expect(outcomes.map((o) => o.outcome)).toEqual(['bank', 'cache']);
});

test('misses, bad tokens and bad input answer code 0 and cost nothing', async () => {
  const { uid, token } = await userWithToken(3);
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ token, title: '一个题库里没有的问题，关于量子色动力学' }, /未找到/],
    [{ token: 'pt_wrongwrongwrongwrongwrongwrongwr', title: '中华人民共和国的首都是哪座城市' }, /令牌/],
    [{ title: '中华人民共和国的首都是哪座城市' }, /令牌/],
    [{ token, title: '' }, /题目不能为空/],
    [{ token, title: '   <p> </p> ' }, /题目不能为空/],
    [{ token, title: 'x'.repeat(2001) }, /过长/],
    [{ token, title: '正常题目', options: Array.from({ length: 27 }, (_, i) => `选项${i}`).join('\n') }, /选项过多/],
    [{ token, title: 'abc\u0000\u0001\u0002' }, /无法识别/],
    [{ token, title: "'; drop table ocs_questions; --" }, /未找到/],
  ];
  for (const [params, msg] of cases) {
    const res = await get(params);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, msg: expect.stringMatching(msg) });
  }
  expect(await balanceOf(uid)).toBe(3);
  expect(await ledgerSum(uid)).toBe(3);
  // Bad input is not stored; a miss is logged (free).
  const logged = await ctx.db
    .selectFrom('ocs_queries')
    .select(['outcome', 'cost'])
    .where('user_id', '=', uid)
    .execute();
  expect(logged).toEqual([
    { outcome: 'miss', cost: 0 },
    { outcome: 'miss', cost: 0 },
  ]);
  expect(Number((await sql<{ n: number }>`select count(*) as n from ocs_questions`.execute(ctx.db)).rows[0]!.n)).toBe(
    BANK.length,
  );
});

test('a malformed JSON body still gets the script shape', async () => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/ocs/query',
    headers: { 'content-type': 'application/json' },
    payload: '{"title": ',
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ code: 0, msg: expect.any(String) });
  expect(res.headers['access-control-allow-origin']).toBe('*');
});

test('CORS preflight is answered', async () => {
  const res = await ctx.app.inject({
    method: 'OPTIONS',
    url: '/api/ocs/query',
    headers: { origin: 'https://mooc.example.edu', 'access-control-request-method': 'POST' },
  });
  expect(res.statusCode).toBe(204);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
  expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
  expect(res.headers['access-control-max-age']).toBe('86400');
});

test('an answer carries what a page needs to read it, and not the preflight-only headers', async () => {
  const { token } = await userWithToken(3);
  const res = await get({ token, title: '中华人民共和国的首都是哪座城市' });
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(res.headers['access-control-allow-methods']).toBeUndefined();
  expect(res.headers['access-control-max-age']).toBeUndefined();
});

test("an answer that the caller's options cannot express is not given", async () => {
  const { uid, token } = await userWithToken(3);
  const res = await get({
    token,
    title: '中华人民共和国的首都是哪座城市',
    options: 'A. 天津\nB. 重庆\nC. 南京\nD. 西安',
  });
  expect(res.json()).toMatchObject({ code: 0 });
  expect(await balanceOf(uid)).toBe(3);
});

test('200 concurrent copies of one question (numbered differently) are charged once, the rest answered from cache', async () => {
  const { uid, token } = await userWithToken(50);
  // Lift the rate limit for this test only: it is about the wallet.
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      ctx.app.inject({
        method: 'GET',
        url: '/api/ocs/query',
        query: { token, title: `${i + 1}. 地球绕太阳公转一周约需365天`, type: 'judgement' },
      }),
    ),
  );
  await writeSettings(ctx.db, { ratePerSecond: 10, rateBurst: 20 });
  ctx.app.ocs.settings.invalidate();
  const bodies = results.map((r) => r.json());
  // The prefix is stripped, so all 200 are the same question: the first is charged, the rest come from cache.
  expect(bodies.filter((b) => b.code === 1 && b.cost === 1)).toHaveLength(1);
  expect(await balanceOf(uid)).toBe(49);
  expect(await ledgerSum(uid)).toBe(49);
});

const lowNotices = (uid: number) => lowBalanceNotices(ctx, uid);

test('the answer that takes a balance below ten bank answers tells its owner, once while unread', async () => {
  const { uid, token } = await userWithToken(12);
  const { uid: other, token: otherToken } = await userWithToken(50);
  const ask = (t: string, q: QuestionInput) =>
    get({ token: t, title: q.title, type: q.type, options: q.options.map((o, i) => `${'ABCD'[i]}. ${o}`).join('\n') });
  // 12 → 11 → 10: still ten answers' worth, nothing said.
  expect((await ask(token, BANK[0]!)).json().code).toBe(1);
  expect((await ask(token, BANK[1]!)).json().code).toBe(1);
  expect(await lowNotices(uid)).toEqual([]);
  // 10 → 9: told, with where to get points.
  expect((await ask(token, BANK[2]!)).json().code).toBe(1);
  expect(await balanceOf(uid)).toBe(9);
  expect(await lowNotices(uid)).toEqual([
    {
      title: 'OCS 积分余额不足 10 次题库答题',
      body: '当前余额 9 积分（题库答题每题 1 积分）。可到「每日领取与兑换」领取积分或使用兑换码',
      link: '/OCS/freeChange',
    },
  ]);
  // 9 → 8: the same news is not said again; a free repeat says nothing either.
  expect((await ask(token, BANK[3]!)).json().code).toBe(1);
  expect((await ask(token, BANK[3]!)).json().code).toBe(1);
  expect(await balanceOf(uid)).toBe(8);
  expect(await lowNotices(uid)).toHaveLength(1);
  // Someone else's charges tell them nothing while their balance is high.
  expect((await ask(otherToken, BANK[0]!)).json().code).toBe(1);
  expect(await lowNotices(other)).toEqual([]);
});

test('200 concurrent distinct questions against a balance of 50: exactly 50 charged, 150 told no balance', async () => {
  const { uid, token } = await userWithToken(50);
  const distinct: QuestionInput[] = Array.from({ length: 200 }, (_, i) => ({
    title: `并发测试题目第${i}号：请选择编号${i}对应的选项`,
    type: 'single',
    options: ['甲', '乙', '丙'],
    answer: ['乙'],
  }));
  await seedQuestions(ctx, distinct);
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
  const results = await Promise.all(
    distinct.map((q) => get({ token, title: q.title, type: 'single', options: 'A. 甲\nB. 乙\nC. 丙' })),
  );
  await writeSettings(ctx.db, { ratePerSecond: 10, rateBurst: 20 });
  ctx.app.ocs.settings.invalidate();
  const bodies = results.map((x) => x.json());
  expect(bodies.filter((b) => b.code === 1)).toHaveLength(50);
  expect(bodies.filter((b) => b.code === 1).every((b) => b.cost === 1 && b.answer === '["B. 乙"]')).toBe(true);
  const refused = bodies.filter((b) => b.code === 0);
  expect(refused).toHaveLength(150);
  expect(refused.every((b) => /余额不足/.test(b.msg))).toBe(true);
  expect(await balanceOf(uid)).toBe(0);
  expect(await ledgerSum(uid)).toBe(0);
  // One debit took the balance from 10 to 9: one notice, whatever the order the 200 arrived in.
  expect(await lowNotices(uid)).toHaveLength(1);
  const charges = await ctx.db
    .selectFrom('ocs_ledger')
    .select('amount')
    .where('user_id', '=', uid)
    .where('kind', '=', 'charge')
    .execute();
  expect(charges).toHaveLength(50);
});

test('the ledger refuses updates (append-only)', async () => {
  const { uid } = await userWithToken(5);
  await expect(sql`update ocs_ledger set amount = 1000 where user_id = ${uid}`.execute(ctx.db)).rejects.toThrow(
    /append-only/,
  );
});

test('more than the burst in one go: the extra queries are told to slow down and cost nothing', async () => {
  const { uid, token } = await userWithToken(100);
  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      get({ token, title: `速率测试${i}：中华人民共和国的首都是哪座城市`, options: 'A. 上海\nB. 北京' }),
    ),
  );
  const slow = results.filter((r) => r.json().code === 0 && /过快/.test(r.json().msg));
  expect(slow.length).toBeGreaterThanOrEqual(10);
  expect(slow[0]!.headers['retry-after']).toBeDefined();
  expect(await ledgerSum(uid)).toBe(await balanceOf(uid));
});

test('the ask page uses the same service; too fast is a real 429 there', async () => {
  const { client, uid } = await userWithToken(5);
  const ok = await client.post('/api/ocs/ask', {
    title: '中华人民共和国的首都是哪座城市',
    type: 'single',
    options: ['上海', '北京'],
  });
  expect(ok.json()).toEqual({
    success: true,
    data: expect.objectContaining({ code: 1, answer: JSON.stringify(['北京']), cost: 1, balance: 4 }),
  });
  const bad = await client.post('/api/ocs/ask', { title: '', options: [] });
  expect(bad.statusCode).toBe(400);
  const many = await Promise.all(
    Array.from({ length: 30 }, (_, i) => client.post('/api/ocs/ask', { title: `问题${i}` })),
  );
  expect(many.some((r) => r.statusCode === 429)).toBe(true);
  expect(await ledgerSum(uid)).toBe(await balanceOf(uid));
});

test("with group commit (the embedded database's charging path): 200 concurrent questions, balance 50 → exactly 50 charged", async () => {
  const { uid } = await userWithToken(50);
  const service = new OcsService({
    db: ctx.db,
    bank: ctx.app.ocs.bank,
    settings: ctx.app.ocs.settings,
    batcher: new ChargeBatcher(ctx.db),
    limiter: (spec) => ctx.app.limits.create(spec),
  });
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const q = parseQuestion({
        title: `并发测试题目第${i}号：请选择编号${i}对应的选项`,
        type: 'single',
        options: 'A. 甲\nB. 乙\nC. 丙',
      });
      if (typeof q === 'string') throw new Error(q);
      return service.answer({ userId: uid, tokenId: null }, q);
    }),
  );
  expect(results.filter((r) => r.code === 1)).toHaveLength(50);
  expect(results.filter((r) => r.code === 0 && /余额不足/.test(r.msg))).toHaveLength(150);
  expect(await balanceOf(uid)).toBe(0);
  expect(await ledgerSum(uid)).toBe(0);
});

test('taking points from a user without a wallet is refused and writes nothing', async () => {
  const { uid } = await userWithToken(0);
  await expect(credit(ctx.db, uid, 'adjust', -5, '扣减')).rejects.toThrow(/余额不足/);
  expect(await ledgerSum(uid)).toBe(0);
  expect(
    await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst(),
  ).toBeUndefined();
});
