/**
 * OCS administration of users and settings through the API: the users list and its figures, balance
 * adjustments (ledger row and audit row together, never below zero, nothing written on refusal), a
 * user's ledger, settings validation and audit, and a 403 for a non-admin on every admin route.
 */
import { sql } from 'kysely';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';

let ctx: TestContext;
let admin: Client;
let adminId: number;
let adminName: string;

beforeAll(async () => {
  ctx = await startTestApp();
  ({ client: admin, uid: adminId, username: adminName } = await loggedInClient(ctx, ['admin']));
});
afterAll(async () => {
  await ctx.close();
});

const balanceOf = async (uid: number) =>
  Number(
    (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst())?.balance ??
      0,
  );
const ledgerOf = (uid: number) =>
  ctx.db.selectFrom('ocs_ledger').selectAll().where('user_id', '=', uid).orderBy('id').execute();
const auditsOf = (uid: number) =>
  ctx.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'ocs.balance.adjust')
    .where('target_id', '=', String(uid))
    .orderBy('id')
    .execute();
const adjust = (uid: number, body: object) => admin.post(`/api/ocs/admin/users/${uid}/adjust`, body);

async function logQuery(uid: number, outcome: string, cost: number, ago: string) {
  await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome, cost, created_at)
    values (${uid}, 'q', 'h', 'single', ${outcome}, ${cost}, now() - ${ago}::interval)`.execute(ctx.db);
}

describe('users list', () => {
  it('shows balance, queries today and in total, AI spend and the last query', async () => {
    const { uid, username } = await loggedInClient(ctx);
    await credit(ctx.db, uid, 'topup', 42, '充值');
    await logQuery(uid, 'ai', 3, '1 minute');
    await logQuery(uid, 'bank', 1, '2 minutes');
    await logQuery(uid, 'ai', 5, '3 days');
    await logQuery(uid, 'miss', 0, '4 days');
    const res = await admin.get(`/api/ocs/admin/users?keyword=${username}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, total: 1, current: 1, pageSize: 10 });
    expect(body.data[0]).toMatchObject({
      id: uid,
      username,
      balance: 42,
      queriesToday: 2,
      queriesTotal: 4,
      aiSpend: 8,
    });
    expect(Date.now() - Date.parse(body.data[0].lastQueryAt)).toBeLessThan(5 * 60_000);

    const { uid: idle, username: idleName } = await loggedInClient(ctx);
    const none = (await admin.get(`/api/ocs/admin/users?keyword=${idleName}`)).json().data[0];
    expect(none).toMatchObject({
      id: idle,
      balance: 0,
      queriesToday: 0,
      queriesTotal: 0,
      aiSpend: 0,
      lastQueryAt: null,
    });
  });

  it('sorts by balance and pages', async () => {
    const { uid } = await loggedInClient(ctx);
    await credit(ctx.db, uid, 'topup', 1_000_000, '大户');
    const res = (await admin.get('/api/ocs/admin/users?sortBy=balance&order=descend&pageSize=1')).json();
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ id: uid, balance: 1_000_000 });
    expect(res.total).toBeGreaterThan(1);
    expect((await admin.get('/api/ocs/admin/users?sortBy=bogus')).statusCode).toBe(400);
  });
});

describe('balance adjustment', () => {
  it('adds and removes points with the reason on an adjust ledger row and an audit row', async () => {
    const { uid, username } = await loggedInClient(ctx);
    const up = await adjust(uid, { amount: 30, reason: '补偿：AI 服务中断' });
    expect(up.statusCode).toBe(200);
    expect(up.json().data).toMatchObject({ balance: 30 });
    const down = await adjust(uid, { amount: -12, reason: '误充回收' });
    expect(down.json().data).toMatchObject({ balance: 18 });
    expect(await balanceOf(uid)).toBe(18);

    const ledger = await ledgerOf(uid);
    expect(ledger.map((l) => [l.kind, Number(l.amount), Number(l.balance_after), l.memo, l.actor_id])).toEqual([
      ['adjust', 30, 30, '补偿：AI 服务中断', adminId],
      ['adjust', -12, 18, '误充回收', adminId],
    ]);
    const audits = await auditsOf(uid);
    expect(audits).toHaveLength(2);
    expect(audits[1]).toMatchObject({
      actor_name: adminName,
      target_type: 'user',
      target_name: username,
      before: { balance: 30 },
      after: { balance: 18, amount: -12, reason: '误充回收', ledgerId: Number(ledger[1]!.id) },
    });

    const page = (await admin.get(`/api/ocs/admin/users/${uid}/ledger?pageSize=1`)).json();
    expect(page).toMatchObject({ total: 2, pageSize: 1 });
    expect(page.data[0]).toMatchObject({ kind: 'adjust', amount: -12, balanceAfter: 18, memo: '误充回收' });
  });

  it('refuses to go below zero and writes nothing, with or without a wallet', async () => {
    const { uid } = await loggedInClient(ctx);
    const empty = await adjust(uid, { amount: -1, reason: '扣减' });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().errorMessage).toContain('余额不足');
    await credit(ctx.db, uid, 'topup', 5, '充值');
    const over = await adjust(uid, { amount: -6, reason: '扣减' });
    expect(over.statusCode).toBe(409);
    expect(await balanceOf(uid)).toBe(5);
    expect((await ledgerOf(uid)).map((l) => l.kind)).toEqual(['topup']);
    expect(await auditsOf(uid)).toHaveLength(0);
    expect((await adjust(uid, { amount: -5, reason: '清零' })).json().data.balance).toBe(0);
  });

  it('requires an integer, non-zero amount and a reason of at most 200 characters', async () => {
    const { uid } = await loggedInClient(ctx);
    for (const body of [
      { amount: 10 },
      { amount: 10, reason: '   ' },
      { amount: 10, reason: '长'.repeat(201) },
      { amount: 0, reason: '零' },
      { amount: 1.5, reason: '小数' },
      { amount: '10', reason: '文本' },
    ]) {
      const res = await adjust(uid, body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
    }
    expect(await ledgerOf(uid)).toHaveLength(0);
    expect((await adjust(999_999, { amount: 1, reason: '不存在的用户' })).statusCode).toBe(404);
  });
});

describe('service settings', () => {
  // The issue-17 settings keep their defaults when a body leaves them out.
  const later = { latencyBudgetSeconds: 15, disputedMode: 'lower', disputeThreshold: 3, reportDailyLimit: 20 };
  const good = { bankPrice: 2, freeDaily: 15, fuzzyThreshold: 0.6, ratePerSecond: 5, rateBurst: 10 };

  it('reads the defaults, saves a change with a before/after audit row and applies it at once', async () => {
    const before = (await admin.get('/api/ocs/admin/settings')).json().data;
    expect(before).toEqual({
      bankPrice: 1,
      freeDaily: 10,
      fuzzyThreshold: 0.5,
      ratePerSecond: 10,
      rateBurst: 20,
      ...later,
    });
    await ctx.app.ocs.settings.get(); // warm the cache, which the save must invalidate
    const res = await admin.request({ method: 'PUT', url: '/api/ocs/admin/settings', payload: good });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ...good, ...later });
    expect(await ctx.app.ocs.settings.get()).toEqual({ ...good, ...later });
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'ocs.settings.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor_name: adminName,
      before: { bankPrice: 1, freeDaily: 10, fuzzyThreshold: 0.5, ratePerSecond: 10, rateBurst: 20 },
      after: good,
    });
    // Saving the same values again changes nothing and is not audited.
    await admin.request({ method: 'PUT', url: '/api/ocs/admin/settings', payload: good });
    const n = await ctx.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'ocs.settings.update')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  it.each([
    ['a negative price', { bankPrice: -1 }],
    ['a fractional price', { bankPrice: 1.5 }],
    ['a threshold below 0.3', { fuzzyThreshold: 0.2 }],
    ['a threshold above 1', { fuzzyThreshold: 1.1 }],
    ['a zero rate', { ratePerSecond: 0 }],
    ['a missing field', { rateBurst: undefined }],
    ['no latency budget', { latencyBudgetSeconds: 0 }],
    ['a latency budget past 25 s', { latencyBudgetSeconds: 30 }],
    ['an unknown disputed mode', { disputedMode: 'hide' }],
    ['a zero report limit', { reportDailyLimit: 0 }],
    ['a dispute threshold below 1', { disputeThreshold: 0.5 }],
  ])('refuses %s with 400 and keeps the settings', async (_label, patch) => {
    const res = await admin.request({
      method: 'PUT',
      url: '/api/ocs/admin/settings',
      payload: { ...good, bankPrice: 3, ...patch },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, errorCode: 'VALIDATION_FAILED' });
    expect((await admin.get('/api/ocs/admin/settings')).json().data.bankPrice).not.toBe(3);
  });
});

describe('non-administrators', () => {
  const ID = '00000000-0000-4000-8000-000000000000';
  // Three columns in every row: jest takes a missing last argument for a done callback.
  const ROUTES: [string, string, object | null][] = [
    ['GET', '/api/ocs/admin/users', null],
    ['POST', '/api/ocs/admin/users/1/adjust', { amount: 1, reason: 'x' }],
    ['GET', '/api/ocs/admin/users/1/ledger', null],
    ['GET', '/api/ocs/admin/settings', null],
    [
      'PUT',
      '/api/ocs/admin/settings',
      { bankPrice: 0, freeDaily: 0, fuzzyThreshold: 0.5, ratePerSecond: 1, rateBurst: 1 },
    ],
    ['GET', '/api/ocs/admin/bank/stats', null],
    ['GET', '/api/ocs/admin/bank/questions', null],
    ['GET', '/api/ocs/admin/bank/search?q=x', null],
    ['GET', '/api/ocs/admin/bank/questions/1', null],
    ['PUT', '/api/ocs/admin/bank/questions/1', { title: 'x', type: 'judgement', answer: ['对'] }],
    ['DELETE', '/api/ocs/admin/bank/questions/1', null],
    ['POST', '/api/ocs/admin/bank/questions/1/status', { status: 'wrong' }],
    ['GET', '/api/ocs/admin/bank/export?format=csv', null],
    ['POST', '/api/ocs/admin/bank/imports', {}],
    ['POST', `/api/ocs/admin/bank/imports/${ID}/commit`, {}],
    ['GET', `/api/ocs/admin/bank/imports/${ID}`, null],
    ['POST', '/api/ocs/admin/bank/sample', {}],
  ];
  let user: Client;
  beforeAll(async () => {
    ({ client: user } = await loggedInClient(ctx, ['njit']));
  });

  it.each(ROUTES)('%s %s answers 403', async (method, url, payload) => {
    const res = await user.request({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, errorCode: 'FORBIDDEN' });
  });

  it('the list above covers every route this module registers', () => {
    const mine = ctx.app.routeAccess
      .filter((r) => /^\/api\/ocs\/admin\/(users|settings|bank)/.test(r.url))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    const listed = ROUTES.map(
      ([m, u]) =>
        `${m} ${u
          .split('?')[0]!
          .replace(/\/1(?=\/|$)/, '/:id')
          .replace(ID, ':id')}`,
    ).sort();
    expect(mine).toEqual(listed);
    expect(
      ctx.app.routeAccess
        .filter((r) => /^\/api\/ocs\/admin\/(users|settings|bank)/.test(r.url))
        .every((r) => r.auth === 'admin'),
    ).toBe(true);
  });
});
