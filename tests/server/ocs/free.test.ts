/**
 * The daily free claim: once per PORTAL_TZ day whatever races, a new day opens a new claim, the
 * administrator's amount is what is paid, and 0 switches claiming off.
 */
import { sql } from 'kysely';
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { Client, loggedInClient, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

async function setFreeDaily(app: TestContext, freeDaily: number) {
  await writeSettings(app.db, { freeDaily });
  app.app.ocs.settings.invalidate();
}

const ledgerOf = (uid: number) =>
  ctx.db
    .selectFrom('ocs_ledger')
    .select(['kind', 'amount', 'balance_after', 'memo'])
    .where('user_id', '=', uid)
    .orderBy('id')
    .execute();
const claimsOf = (uid: number) =>
  ctx.db
    .selectFrom('ocs_free_claims')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'amount'])
    .where('user_id', '=', uid)
    .execute();

test('the status says what can be claimed and that the next claim opens at Shanghai midnight', async () => {
  const { client } = await loggedInClient(ctx);
  const res = await client.get('/api/ocs/free');
  expect(res.statusCode).toBe(200);
  const s = res.json().data;
  expect(s).toMatchObject({ amount: 10, enabled: true, claimedToday: false, claimedAmount: null, balance: 0 });
  const next = Date.parse(s.nextClaimAt);
  const now = Date.parse(s.serverTime);
  expect(next - now).toBeGreaterThan(0);
  expect(next - now).toBeLessThanOrEqual(86_400_000);
  expect(new Date(next).getUTCHours()).toBe(16); // 00:00 in UTC+8
  expect(new Date(next).getUTCMinutes()).toBe(0);
});

test('20 parallel claims: exactly one succeeds, one ledger row, one claim row', async () => {
  const { client, uid } = await loggedInClient(ctx);
  const results = await Promise.all(Array.from({ length: 20 }, () => client.post('/api/ocs/free/claim')));
  const ok = results.filter((r) => r.statusCode === 200);
  expect(ok).toHaveLength(1);
  expect(ok[0]!.json().data).toMatchObject({ amount: 10, balance: 10 });
  const refused = results.filter((r) => r.statusCode === 409);
  expect(refused).toHaveLength(19);
  expect(refused[0]!.json().errorMessage).toBe('今天已经领取过了，明天再来吧');
  const ledger = await ledgerOf(uid);
  expect(ledger).toHaveLength(1);
  expect(ledger[0]).toMatchObject({ kind: 'free', amount: 10, balance_after: 10 });
  expect(await claimsOf(uid)).toHaveLength(1);

  const status = (await client.get('/api/ocs/free')).json().data;
  expect(status).toMatchObject({ claimedToday: true, claimedAmount: 10, balance: 10 });
});

test("a new day opens a new claim (yesterday's claim does not block today's)", async () => {
  const { client, uid } = await loggedInClient(ctx);
  expect((await client.post('/api/ocs/free/claim')).statusCode).toBe(200);
  expect((await client.post('/api/ocs/free/claim')).statusCode).toBe(409);
  // The day passes: today's claim becomes yesterday's.
  await sql`update ocs_free_claims set day = day - 1 where user_id = ${uid}`.execute(ctx.db);
  expect((await client.get('/api/ocs/free')).json().data.claimedToday).toBe(false);
  const again = await client.post('/api/ocs/free/claim');
  expect(again.statusCode).toBe(200);
  expect(again.json().data.balance).toBe(20);
  expect((await claimsOf(uid)).map((c) => c.day)).toHaveLength(2);
  expect(await ledgerOf(uid)).toHaveLength(2);
});

test('the day is the PORTAL_TZ day: two zones 26 hours apart are always on different days', async () => {
  const east = await startTestApp({ PORTAL_TZ: 'Etc/GMT-14' }, { db: ctx.db, close: async () => {} });
  const west = await startTestApp({ PORTAL_TZ: 'Etc/GMT+12' }, { db: ctx.db, close: async () => {} });
  try {
    const { uid, client } = await loggedInClient(east);
    expect((await client.post('/api/ocs/free/claim')).statusCode).toBe(200);
    expect((await client.post('/api/ocs/free/claim')).statusCode).toBe(409);
    // The same session, read by an instance configured for UTC-12: it is still "yesterday" there.
    const westClient = new Client(west.app);
    westClient.cookies = new Map(client.cookies);
    expect((await westClient.get('/api/ocs/free')).json().data.claimedToday).toBe(false);
    expect((await westClient.post('/api/ocs/free/claim')).statusCode).toBe(200);
    const days = (await claimsOf(uid)).map((c) => c.day).sort();
    expect(days).toHaveLength(2);
    expect(days[0]).not.toBe(days[1]);
  } finally {
    await east.close();
    await west.close();
  }
});

test("the administrator's amount is paid; 0 switches claiming off with a clear message", async () => {
  try {
    await setFreeDaily(ctx, 25);
    const a = await loggedInClient(ctx);
    expect((await a.client.get('/api/ocs/free')).json().data.amount).toBe(25);
    expect((await a.client.post('/api/ocs/free/claim')).json().data).toMatchObject({ amount: 25, balance: 25 });
    expect((await ledgerOf(a.uid))[0]).toMatchObject({ kind: 'free', amount: 25 });

    await setFreeDaily(ctx, 0);
    const b = await loggedInClient(ctx);
    expect((await b.client.get('/api/ocs/free')).json().data).toMatchObject({
      amount: 0,
      enabled: false,
      claimedToday: false,
    });
    const off = await b.client.post('/api/ocs/free/claim');
    expect(off.statusCode).toBe(409);
    expect(off.json().errorMessage).toBe('管理员已关闭每日免费领取');
    expect(await claimsOf(b.uid)).toHaveLength(0);
    expect(await ledgerOf(b.uid)).toHaveLength(0);
  } finally {
    await setFreeDaily(ctx, 10);
  }
});

test('every wallet equals the sum of its ledger', async () => {
  const off = await sql<{ user_id: number }>`
    select w.user_id from ocs_wallets w
    where w.balance <> (select coalesce(sum(amount), 0) from ocs_ledger l where l.user_id = w.user_id)`.execute(ctx.db);
  expect(off.rows).toEqual([]);
});

test('anonymous callers get 401', async () => {
  expect((await ctx.app.inject({ method: 'GET', url: '/api/ocs/free' })).statusCode).toBe(401);
  expect((await ctx.app.inject({ method: 'POST', url: '/api/ocs/free/claim' })).statusCode).toBe(401);
});
