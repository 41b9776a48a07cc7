/**
 * Two instances on one database, each with its own token cache and in-memory bank. With
 * TEST_DATABASE_URL they are two database handles on one PostgreSQL (separate pools, separate LISTEN
 * connections), as two servers would be; on the embedded database, two apps on one handle (the process
 * is alone on its data directory). A token revoked or an owner disabled on one is refused on the other
 * within a bounded wait; a question edited on one is answered as edited by the other at once.
 */
import { openDatabase } from '../../../server/db/database';
import { prepareQuestion } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { chargeForAnswer } from '../../../server/modules/ocs/wallet/charge';
import { loggedInClient, openTestDatabase, startTestApp, type TestContext, type TestDatabase } from '../helpers';
import { ask, userWithToken } from './admin-fixtures';

const BOUND_MS = 3_000;

let shared: TestDatabase;
let second: TestDatabase;
let a: TestContext;
let b: TestContext;

beforeAll(async () => {
  shared = await openTestDatabase();
  if (shared.url) {
    const other = await openDatabase({ url: shared.url, poolMax: 5 });
    second = { db: other.db, url: shared.url, close: () => other.close() };
  } else {
    second = { db: shared.db, close: async () => undefined };
  }
  // Refresh rounds far apart: what another instance wrote must arrive by its announcement.
  a = await startTestApp({ OCS_INDEX_REFRESH_MS: '600000' }, shared);
  b = await startTestApp({ OCS_INDEX_REFRESH_MS: '600000' }, second);
  await writeSettings(a.db, { ratePerSecond: 1000, rateBurst: 1000 });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await second?.close();
  await shared?.close();
});

const check = (ctx: TestContext, token: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/token/check', headers: { authorization: `Bearer ${token}` } });

/** Checks the token on this instance until it is served without the database (bounded). */
async function cached(ctx: TestContext, token: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const spy = jest.spyOn(ctx.db.getExecutor(), 'executeQuery');
    try {
      expect((await check(ctx, token)).statusCode).toBe(200);
      if (spy.mock.calls.length === 0) return;
    } finally {
      spy.mockRestore();
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the token cache never served the token');
}

/** Polls until the other instance refuses the token; returns how long it took. */
async function refusedWithin(ctx: TestContext, token: string): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < BOUND_MS) {
    if ((await check(ctx, token)).statusCode === 401) return Date.now() - t0;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`token still accepted after ${BOUND_MS} ms`);
}

test('a token revoked on one instance is refused on the other within a bounded wait', async () => {
  const { client } = await loggedInClient(a);
  const { token, id } = (
    await client.post('/api/user/tokens', { name: 'two', scopes: ['ocs:query'], expiresInDays: null })
  ).json().data;
  // Both instances have checked it, and serve it from their caches.
  await cached(a, token);
  await cached(b, token);
  expect((await client.post(`/api/user/tokens/${id}/revoke`, {})).statusCode).toBe(200);
  expect((await check(a, token)).statusCode).toBe(401); // at once where it was revoked
  expect(await refusedWithin(b, token)).toBeLessThan(BOUND_MS);
});

test('an owner disabled on one instance is refused on the other within a bounded wait', async () => {
  const admin = (await loggedInClient(a, ['admin'])).client;
  const { uid, token } = await userWithToken(a, 0);
  await cached(b, token);
  const res = await admin.request({
    method: 'PATCH',
    url: `/api/user/admin/users/${uid}`,
    payload: { status: 'disabled' },
  });
  expect(res.statusCode).toBe(200);
  expect(await refusedWithin(b, token)).toBeLessThan(BOUND_MS);
});

test('a question edited on one instance is answered as edited by the other at once', async () => {
  const p = prepareQuestion({
    title: '两个实例：答案会被修改的题',
    type: 'single',
    options: ['甲', '乙'],
    answer: ['甲'],
  });
  if ('error' in p) throw new Error(p.error);
  const [row] = (await upsertQuestions(a.db, [p], 'import')).rows;
  for (const ctx of [a, b]) {
    ctx.app.ocs.bank.index.add(row!.id, row!.norm_title);
    await ctx.app.ocs.bank.settled();
  }
  const { token } = await userWithToken(b, 10);
  expect(await ask(b, token, '两个实例：答案会被修改的题', 'single', 'A. 甲\nB. 乙')).toMatchObject({
    code: 1,
    answer: JSON.stringify(['A. 甲']),
  });
  const admin = (await loggedInClient(a, ['admin'])).client;
  const edit = await admin.request({
    method: 'PUT',
    url: `/api/ocs/admin/bank/questions/${row!.id}`,
    payload: { title: '两个实例：答案会被修改的题', type: 'single', options: ['甲', '乙'], answer: ['乙'] },
  });
  expect(edit.statusCode).toBe(200);
  const { token: t2 } = await userWithToken(b, 10);
  expect(await ask(b, t2, '两个实例：答案会被修改的题', 'single', 'A. 甲\nB. 乙')).toMatchObject({
    code: 1,
    answer: JSON.stringify(['B. 乙']),
    cost: 1,
  });
});

test("a question written on one instance reaches the other one's memory without waiting for a refresh round", async () => {
  if (!shared.url) return; // the embedded database has one instance
  // An instance takes at most one announced refresh a second: let the previous test's pass.
  await new Promise((r) => setTimeout(r, 1_100));
  const p = prepareQuestion({
    title: '两个实例：在另一个实例写入的题',
    type: 'judgement',
    options: [],
    answer: ['对'],
  });
  if ('error' in p) throw new Error(p.error);
  const [row] = (await upsertQuestions(a.db, [p], 'import')).rows;
  a.app.ocs.bank.index.add(row!.id, row!.norm_title); // as an import on instance a does
  const t0 = Date.now();
  while (!b.app.ocs.bank.exact.has(row!.id)) {
    if (Date.now() - t0 > BOUND_MS) throw new Error('the other instance never took the question in');
    await new Promise((r) => setTimeout(r, 20));
  }
  const { token } = await userWithToken(b, 5);
  expect(await ask(b, token, '两个实例：在另一个实例写入的题', 'judgement')).toMatchObject({ code: 1, answer: '正确' });
});

test('the same question sent to both instances at the same instant is charged once', async () => {
  const p = prepareQuestion({ title: '两个实例：同时提问的同一题', type: 'judgement', options: [], answer: ['错'] });
  if ('error' in p) throw new Error(p.error);
  const [row] = (await upsertQuestions(a.db, [p], 'import')).rows;
  for (const ctx of [a, b]) {
    ctx.app.ocs.bank.index.add(row!.id, row!.norm_title);
    await ctx.app.ocs.bank.settled();
  }
  for (let round = 0; round < 5; round++) {
    const { uid, token } = await userWithToken(a, 10);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ask(i % 2 ? b : a, token, '两个实例：同时提问的同一题', 'judgement')),
    );
    for (const r of answers) expect(r).toMatchObject({ code: 1, answer: '错误' });
    const charged = await a.db
      .selectFrom('ocs_ledger')
      .select((eb) => eb.fn.sum<number>('amount').as('spent'))
      .where('user_id', '=', uid)
      .where('kind', '=', 'charge')
      .executeTakeFirstOrThrow();
    expect(Number(charged.spent)).toBe(-1);
  }
});

test("a token's OCS rate limit holds across both instances, not once per instance", async () => {
  await writeSettings(a.db, { ratePerSecond: 5, rateBurst: 5 });
  for (const ctx of [a, b]) ctx.app.ocs.settings.invalidate();
  try {
    const { token } = await userWithToken(a, 0);
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) => ask(i % 2 ? b : a, token, `两个实例：限流测试第${i}题`)),
    );
    const tooFast = answers.filter((r) => r.code === 0 && /请求过快/.test(r.msg));
    // 5 a second (plus what the window's turn lets through) across both: at least 16 - 2·5 refused.
    expect(tooFast.length).toBeGreaterThanOrEqual(6);
  } finally {
    await writeSettings(a.db, { ratePerSecond: 1000, rateBurst: 1000 });
    for (const ctx of [a, b]) ctx.app.ocs.settings.invalidate();
  }
});

test("a token's UMS send limit holds across both instances", async () => {
  const { client } = await loggedInClient(a);
  const { token } = (
    await client.post('/api/user/tokens', { name: 'ums', scopes: ['ums:send'], expiresInDays: null })
  ).json().data;
  // UMS_TOKEN_BURST (20 per 20 s by default) across both instances: 40 sends, at most 20 accepted.
  const sends = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? b : a).app.inject({
        method: 'POST',
        url: '/api/ums/send',
        headers: { authorization: `Bearer ${token}` },
        payload: { title: `限流 ${i}`, content: '两个实例' },
      }),
    ),
  );
  const limited = sends.filter((r) => r.statusCode === 429).length;
  expect(limited).toBeGreaterThanOrEqual(20);
  expect(sends.filter((r) => r.statusCode !== 429 && r.statusCode >= 500)).toHaveLength(0);
});

test('charges of one user and question from two database handles at once: one charge, the rest free repeats', async () => {
  for (let round = 0; round < 20; round++) {
    const { uid } = await userWithToken(a, 10);
    const charge = (db: typeof a.db) =>
      chargeForAnswer(db, {
        userId: uid,
        tokenId: null,
        price: 1,
        key: `same-instant-${round}`,
        title: '两个实例：同一瞬间的同一题',
        type: 'judgement',
        outcome: 'bank',
        questionId: null,
        modelId: null,
        answer: '正确',
      });
    const results = await Promise.all([charge(shared.db), charge(second.db), charge(shared.db), charge(second.db)]);
    expect(results.filter((r) => r.status === 'charged')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'cached')).toHaveLength(3);
  }
});
