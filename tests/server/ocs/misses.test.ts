/**
 * The 未收录 queue: misses kept normalized and deduplicated with counts, most asked first;
 * answered in bulk (all or nothing) or from an AI draft, each answer a verified bank entry that the
 * next asker gets; dismissed ones stay dismissed; a minimum confidence the bank cannot meet is a
 * miss too, free.
 */
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { prepareQuestion } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai';
import { loggedInClient, FAKES_ON_LOOPBACK, startTestApp, type Client, type TestContext } from '../helpers';
import { userWithToken } from './admin-fixtures';
import { createModel, createProvider } from './ai-helpers';

let ctx: TestContext;
let fake: FakeOpenAi;
let admin: Client;

beforeAll(async () => {
  [ctx, fake] = await Promise.all([startTestApp(FAKES_ON_LOOPBACK), startFakeOpenAi()]);
  admin = (await loggedInClient(ctx, ['admin'])).client;
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
});
afterAll(async () => {
  await fake.close();
  await ctx.close();
});

const ask = (token: string, params: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/api/ocs/query', query: { token, ...params } }).then((r) => r.json());
const queue = async (query = '') => (await admin.get(`/api/ocs/admin/misses${query}`)).json();

test('misses are kept once per question, normalized, counted, most asked first', async () => {
  const { token } = await userWithToken(ctx, 10);
  const other = await userWithToken(ctx, 10);
  const cpu = { title: '未收录：CPU 的中文全称是？', type: 'single', options: 'A. 中央处理器\nB. 图形处理器' };
  expect(await ask(token, cpu)).toMatchObject({ code: 0 });
  expect(
    await ask(other.token, { ...cpu, title: '1、未收录：CPU的中文全称是', options: 'A、中央处理器\nB、图形处理器' }),
  ).toMatchObject({
    code: 0,
  });
  expect(await ask(token, { ...cpu, options: 'A. 图形处理器\nB. 中央处理器' })).toMatchObject({ code: 0 });
  expect(await ask(token, { title: '未收录：TCP 是哪一层的协议？', type: 'completion' })).toMatchObject({ code: 0 });
  const q = await queue();
  expect(q.total).toBe(2);
  expect(q.data[0]).toMatchObject({
    title: '未收录：CPU 的中文全称是？',
    type: 'single',
    options: ['中央处理器', '图形处理器'],
    count: 3,
    status: 'open',
  });
  expect(q.data[1]).toMatchObject({ title: '未收录：TCP 是哪一层的协议？', count: 1 });
  expect((await queue('?keyword=TCP')).data).toHaveLength(1);
  expect((await admin.get('/api/ocs/admin/misses?status=bogus')).statusCode).toBe(400);
});

test('answered in bulk: verified bank entries the next asker gets; one bad answer writes nothing', async () => {
  const rows = (await queue()).data as Array<{ id: number; title: string }>;
  const cpu = rows.find((r) => r.title.includes('CPU'))!;
  const tcp = rows.find((r) => r.title.includes('TCP'))!;
  const bad = await admin.post('/api/ocs/admin/misses/answer', {
    items: [
      { id: cpu.id, answer: ['A'] },
      { id: tcp.id, answer: [] },
    ],
  });
  expect(bad.statusCode).toBe(400);
  const notOption = await admin.post('/api/ocs/admin/misses/answer', { items: [{ id: cpu.id, answer: ['内存'] }] });
  expect(notOption.statusCode).toBe(400);
  expect((await queue()).total).toBe(2);

  const ok = await admin.post('/api/ocs/admin/misses/answer', {
    items: [
      { id: cpu.id, answer: ['中央处理器'] },
      { id: tcp.id, answer: ['传输层'] },
    ],
  });
  expect(ok.json().data).toEqual({ answered: 2 });
  expect((await queue()).total).toBe(0);
  expect((await queue('?status=answered')).data).toHaveLength(2);
  expect(
    (await admin.post('/api/ocs/admin/misses/answer', { items: [{ id: cpu.id, answer: ['A'] }] })).statusCode,
  ).toBe(409);
  await ctx.app.ocs.bank.settled();
  const { token } = await userWithToken(ctx, 10);
  expect(
    await ask(token, { title: '未收录：CPU 的中文全称是？', type: 'single', options: 'A. 图形处理器\nB. 中央处理器' }),
  ).toMatchObject({
    code: 1,
    answer: JSON.stringify(['B. 中央处理器']),
    source: 'verified',
    confidence: 0.98,
  });
  expect(await ask(token, { title: '未收录：TCP 是哪一层的协议', type: 'completion' })).toMatchObject({
    code: 1,
    answer: JSON.stringify(['传输层']),
  });
});

test('an AI draft is kept for the administrator; accepting it makes a verified entry; dismissed misses stay dismissed', async () => {
  const { token } = await userWithToken(ctx, 10);
  const q1 = { title: '未收录：HTTP 默认端口是？', type: 'single', options: 'A. 21\nB. 80\nC. 443' };
  await ask(token, q1);
  await ask(token, { title: '未收录：一道没人会答的题', type: 'completion' });
  const rows = (await queue()).data as Array<{ id: number; title: string }>;
  const http = rows.find((r) => r.title.includes('HTTP'))!;
  const junk = rows.find((r) => r.title.includes('没人会答'))!;
  // No model enabled yet: a clear refusal.
  const none = await admin.post(`/api/ocs/admin/misses/${http.id}/draft`, {});
  expect(none.statusCode).toBe(409);
  expect(none.json().errorMessage).toBe('没有启用的 AI 模型，无法起草答案');
  await createModel(admin, await createProvider(admin, fake.url), { price: 2 });
  fake.script({ kind: 'answer', text: 'B' });
  const draft = await admin.post(`/api/ocs/admin/misses/${http.id}/draft`, {});
  expect(draft.json().data).toMatchObject({ id: http.id, draft: ['80'], draftModel: 'fake-model', status: 'open' });
  expect(
    (await ctx.db.selectFrom('ocs_questions').select('id').where('title', 'like', '%HTTP 默认端口%').execute()).length,
  ).toBe(0);
  await admin.post('/api/ocs/admin/misses/answer', { items: [{ id: http.id, answer: ['80'] }] });
  const stored = await ctx.db
    .selectFrom('ocs_questions')
    .select(['source', 'status'])
    .where('title', 'like', '%HTTP 默认端口%')
    .executeTakeFirstOrThrow();
  expect(stored).toEqual({ source: 'ai', status: 'verified' });
  await ctx.db.updateTable('ocs_models').set({ enabled: false }).execute();

  expect((await admin.post('/api/ocs/admin/misses/dismiss', { ids: [junk.id] })).json().data).toEqual({ dismissed: 1 });
  expect((await admin.post('/api/ocs/admin/misses/dismiss', { ids: [junk.id] })).statusCode).toBe(409);
  await ask(token, { title: '未收录：一道没人会答的题', type: 'completion' });
  const dismissed = (await queue('?status=dismissed')).data;
  expect(dismissed).toEqual([expect.objectContaining({ id: junk.id, count: 2, status: 'dismissed' })]);
});

test('a user’s minimum confidence the answers cannot meet: not found, free, and in the queue', async () => {
  const rows = (
    await upsertQuestions(
      ctx.db,
      [prepareQuestion({ title: '置信度：AI 生成的答案', type: 'judgement', options: [], answer: ['对'] })].map(
        (p) => p as Exclude<typeof p, { error: string }>,
      ),
      'ai',
      'unverified',
    )
  ).rows;
  ctx.app.ocs.bank.index.add(rows[0]!.id, rows[0]!.norm_title);
  await ctx.app.ocs.bank.settled();
  const u = await userWithToken(ctx, 10);
  const put = (minConfidence: number) =>
    u.client.request({ method: 'PUT', url: '/api/ocs/preferences', payload: { minConfidence } });
  expect((await put(0.8)).statusCode).toBe(200);
  const low = await ask(u.token, { title: '置信度：AI 生成的答案', type: 'judgement' });
  expect(low).toEqual({
    code: 0,
    msg: '找到的答案置信度 70%，低于你设置的最低置信度 80%，按未找到处理，未扣费',
  });
  expect(
    Number(
      (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', u.uid).executeTakeFirstOrThrow())
        .balance,
    ),
  ).toBe(10);
  expect((await queue()).data.some((m: { title: string }) => m.title === '置信度：AI 生成的答案')).toBe(true);
  await put(0.6);
  expect(await ask(u.token, { title: '置信度：AI 生成的答案', type: 'judgement' })).toMatchObject({
    code: 1,
    answer: '正确',
    source: 'ai',
    confidence: 0.7,
    cost: 1,
  });
});

test('a minimum confidence is kept to a thousandth: a tiny positive one is 0, not a database error', async () => {
  const u = await userWithToken(ctx, 0);
  for (const [sent, kept] of [
    [5e-324, 0],
    [1e-306, 0],
    [0.12345, 0.123],
    [1, 1],
  ] as const) {
    const res = await u.client.request({
      method: 'PUT',
      url: '/api/ocs/preferences',
      payload: { minConfidence: sent },
    });
    expect(res.statusCode).toBe(200);
    expect((await u.client.get('/api/ocs/preferences')).json().data.minConfidence).toBeCloseTo(kept, 6);
  }
});
