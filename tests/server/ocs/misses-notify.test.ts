/**
 * The administrators' "未收录 queue growing" notice: told once per administrator when a write of misses
 * takes the open queue to OCS_MISSES_NOTIFY_AT, not again while it stays there or while the notice is
 * unread, again after it went below the mark and crossed it anew; plain users hear nothing; two
 * instances writing at once tell once; 0 turns it off.
 */
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { loggedInClient, openTestDatabase, startTestApp, type Client, type TestContext } from '../helpers';
import { userWithToken } from './admin-fixtures';

const MARK = 3;
let ctx: TestContext;
let admins: Client[];
let plain: Client;
let token: string;
let asked = 0;

beforeAll(async () => {
  ctx = await startTestApp({ OCS_MISSES_NOTIFY_AT: String(MARK) });
  admins = [(await loggedInClient(ctx, ['admin'])).client, (await loggedInClient(ctx, ['admin'])).client];
  plain = (await loggedInClient(ctx)).client;
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
  token = (await userWithToken(ctx, 10)).token;
});
afterAll(async () => {
  await ctx.close();
});

/** `n` new questions nobody can answer, asked through the OCS API and written to the queue. */
async function miss(n: number, app = ctx): Promise<void> {
  for (let i = 0; i < n; i++) {
    asked += 1;
    const res = await app.app.inject({
      method: 'GET',
      url: '/api/ocs/query',
      query: { token, title: `没人会答的第 ${asked} 题：${process.pid}`, type: 'completion' },
    });
    expect(res.json()).toMatchObject({ code: 0 });
  }
}

const notices = async (client: Client) =>
  (await client.get('/api/notifications?kind=ocs.misses.growing')).json().data as Array<{
    id: number;
    title: string;
    body: string;
    link: string | null;
    readAt: string | null;
  }>;

async function openIds(): Promise<number[]> {
  const res = await admins[0]!.get('/api/ocs/admin/misses?pageSize=100');
  return (res.json().data as Array<{ id: number }>).map((m) => m.id);
}

test('crossing the mark tells each administrator once; more misses and another crossing while unread add nothing', async () => {
  await miss(MARK - 1);
  await ctx.app.ocs.misses.flush();
  for (const a of admins) expect(await notices(a)).toHaveLength(0);

  await miss(2);
  await ctx.app.ocs.misses.flush();
  for (const a of admins) {
    const told = await notices(a);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      title: `未收录题目已达 ${MARK} 道`,
      link: '/OCS/OCSAdmin/misses',
      readAt: null,
    });
    expect(told[0]!.body).toContain(`目前有 ${MARK + 1} 道题目`);
  }
  expect(await notices(plain)).toHaveLength(0);

  // Still over the mark: no new crossing.
  await miss(1);
  await ctx.app.ocs.misses.flush();
  for (const a of admins) expect(await notices(a)).toHaveLength(1);

  // Below the mark and across it again while the first notice waits unread: still one.
  const ids = await openIds();
  expect((await admins[0]!.post('/api/ocs/admin/misses/dismiss', { ids: ids.slice(0, 3) })).statusCode).toBe(200);
  await miss(2);
  await ctx.app.ocs.misses.flush();
  for (const a of admins) expect(await notices(a)).toHaveLength(1);
});

test('once read, the next crossing tells again; staying over the mark after reading does not', async () => {
  const first = (await notices(admins[0]!))[0]!;
  expect((await admins[0]!.post('/api/notifications/read', { ids: [first.id] })).statusCode).toBe(200);

  // Over the mark, read, more misses: no crossing, no notice.
  await miss(1);
  await ctx.app.ocs.misses.flush();
  expect(await notices(admins[0]!)).toHaveLength(1);

  const ids = await openIds();
  await admins[0]!.post('/api/ocs/admin/misses/dismiss', { ids: ids.slice(0, ids.length - (MARK - 1)) });
  expect(await openIds()).toHaveLength(MARK - 1);
  await miss(1);
  await ctx.app.ocs.misses.flush();
  const told = await notices(admins[0]!);
  expect(told).toHaveLength(2);
  expect(told[0]).toMatchObject({ readAt: null, title: `未收录题目已达 ${MARK} 道` });
  // The other administrator never read theirs: still the one.
  expect(await notices(admins[1]!)).toHaveLength(1);
  expect(await notices(plain)).toHaveLength(0);
});

test('two instances writing the crossing at once tell each administrator once', async () => {
  const tdb = await openTestDatabase();
  const env = { OCS_MISSES_NOTIFY_AT: String(MARK) };
  const one = await startTestApp(env, tdb);
  const two = await startTestApp(env, tdb, { secrets: one.secrets });
  try {
    const admin = (await loggedInClient(one, ['admin'])).client;
    await writeSettings(one.db, { ratePerSecond: 1000, rateBurst: 1000 });
    one.app.ocs.settings.invalidate();
    two.app.ocs.settings.invalidate();
    const saved = token;
    token = (await userWithToken(one, 10)).token;
    await miss(MARK - 1, one);
    await one.app.ocs.misses.flush();
    await miss(1, one);
    await miss(1, two);
    await Promise.all([one.app.ocs.misses.flush(), two.app.ocs.misses.flush()]);
    token = saved;
    expect(await notices(admin)).toHaveLength(1);
  } finally {
    await two.close();
    await one.close();
    await tdb.close();
  }
});

test('OCS_MISSES_NOTIFY_AT=0 never tells', async () => {
  const off = await startTestApp({ OCS_MISSES_NOTIFY_AT: '0' });
  try {
    const admin = (await loggedInClient(off, ['admin'])).client;
    await writeSettings(off.db, { ratePerSecond: 1000, rateBurst: 1000 });
    off.app.ocs.settings.invalidate();
    const saved = token;
    token = (await userWithToken(off, 10)).token;
    await miss(MARK + 2, off);
    await off.app.ocs.misses.flush();
    token = saved;
    expect((await admin.get('/api/notifications?kind=ocs.misses.growing')).json().total).toBe(0);
    expect((await admin.get('/api/ocs/admin/misses')).json().total).toBe(MARK + 2);
  } finally {
    await off.close();
  }
});
