/**
 * Per-kind notification preferences: every kind is on until its user turns it off; a kind turned off
 * is not stored for that user at all (notify() and notifyAdmins() alike, so no count and no live event),
 * while other kinds and other users are told as before; administrators' kinds are offered only to
 * administrators; bad input is refused with field errors and changes nothing.
 */
import { notify, notifyAdmins } from '../../server/modules/notifications/service';
import { ADMIN_NOTIFICATION_KINDS, NOTIFICATION_KINDS } from '../../src/contract';
import { Client, loggedInClient, startTestApp, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const URL = '/api/notifications/preferences';
type Prefs = { kinds: Array<{ kind: string; enabled: boolean; forward: boolean }>; forwardChannelId: number | null };
const prefs = async (client: Client): Promise<Prefs> => {
  const res = await client.get(URL);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const put = (client: Client, payload: unknown) =>
  client.request({ method: 'PUT', url: URL, payload: payload as object });
const stored = async (userId: number) =>
  (await ctx.db.selectFrom('notifications').select(['kind', 'title']).where('user_id', '=', userId).execute()).map(
    (r) => `${r.kind} ${r.title}`,
  );

test('every kind is on by default; administrators’ kinds are offered to administrators only', async () => {
  const user = await loggedInClient(ctx);
  const admin = await loggedInClient(ctx, ['admin']);
  const all = Object.keys(NOTIFICATION_KINDS);
  expect(await prefs(admin.client)).toEqual({
    kinds: all.map((kind) => ({ kind, enabled: true, forward: false })),
    forwardChannelId: null,
  });
  expect((await prefs(user.client)).kinds.map((k) => k.kind)).toEqual(
    all.filter((k) => !(ADMIN_NOTIFICATION_KINDS as string[]).includes(k)),
  );
  expect((await new Client(ctx.app).get(URL)).statusCode).toBe(401);
});

test('a kind turned off is not stored for its user; other kinds and other users are told; on again, told again', async () => {
  const me = await loggedInClient(ctx);
  const other = await loggedInClient(ctx);
  const res = await put(me.client, { enabled: { 'ums.failed': false, 'user.new-browser': true } });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.kinds).toContainEqual({ kind: 'ums.failed', enabled: false, forward: false });
  expect(res.json().data.kinds).toContainEqual({ kind: 'user.new-browser', enabled: true, forward: false });
  // A later save of another kind keeps this one.
  await put(me.client, { enabled: { 'ocs.balance.low': false } });
  expect((await prefs(me.client)).kinds.filter((k) => !k.enabled).map((k) => k.kind)).toEqual([
    'ums.failed',
    'ocs.balance.low',
  ]);

  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '静音的' });
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '也静音', body: 'x' }, { unlessUnread: true });
  await ctx.db.transaction().execute((trx) => notify(trx, me.uid, { kind: 'ocs.balance.low', title: '余额' }));
  await notify(ctx.db, me.uid, { kind: 'user.new-browser', title: '新浏览器' });
  await notify(ctx.db, other.uid, { kind: 'ums.failed', title: '别人的' });
  expect(await stored(me.uid)).toEqual(['user.new-browser 新浏览器']);
  expect(await stored(other.uid)).toEqual(['ums.failed 别人的']);
  expect((await me.client.get('/api/notifications/unread-count')).json().data.unread).toBe(1);

  await put(me.client, { enabled: { 'ums.failed': true } });
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '又开了' });
  expect(await stored(me.uid)).toEqual(['user.new-browser 新浏览器', 'ums.failed 又开了']);
});

test('administrators who turned a kind off are left out of notifyAdmins; the others are told once until read', async () => {
  // Administrators from other tests may exist: only these two are looked at.
  const quiet = await loggedInClient(ctx, ['admin']);
  const loud = await loggedInClient(ctx, ['admin']);
  await put(quiet.client, { enabled: { 'ocs.report.new': false } });
  await notifyAdmins(ctx.db, { kind: 'ocs.report.new', title: '新的纠错', link: '/OCS/OCSAdmin/reviews' });
  await notifyAdmins(ctx.db, { kind: 'ocs.report.new', title: '又一条' });
  await notifyAdmins(ctx.db, { kind: 'ocs.upstream.open', title: '熔断' });
  expect(await stored(quiet.uid)).toEqual(['ocs.upstream.open 熔断']);
  expect(await stored(loud.uid)).toEqual(['ocs.report.new 新的纠错', 'ocs.upstream.open 熔断']);
});

test('bad input is refused with field errors and changes nothing', async () => {
  const me = await loggedInClient(ctx);
  await put(me.client, { enabled: { 'ums.failed': false } });
  const before = await prefs(me.client);
  // The field each is refused in (a pattern: a NUL or a lone surrogate is named where it was found).
  const cases: Array<[unknown, string | RegExp]> = [
    [{ enabled: null }, 'enabled'],
    [{ enabled: {}, extra: 1 }, '_'],
    [{ enabled: { nope: false } }, 'enabled'],
    [{ enabled: { 'ums.failed': true, nope: false } }, 'enabled'],
    [{ enabled: { 'ums.failed\u0000': true } }, /^enabled/],
    [{ enabled: { '\ud800': true } }, /^enabled/],
    [{ enabled: { ['x'.repeat(100_000)]: true } }, 'enabled'],
    [{ enabled: { 'ums.failed': 'false' } }, 'enabled.ums.failed'],
    [{ enabled: { 'ums.failed': 0 } }, 'enabled.ums.failed'],
    [{ enabled: { 'ums.failed': null } }, 'enabled.ums.failed'],
    [{ enabled: '{"ums.failed":true}' }, 'enabled'],
    [{ enabled: [true] }, 'enabled'],
  ];
  for (const [payload, field] of cases) {
    const res = await put(me.client, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(Object.keys(res.json().data)).toEqual([typeof field === 'string' ? field : expect.stringMatching(field)]);
    expect(await prefs(me.client)).toEqual(before);
  }
  const unknown = await put(me.client, { enabled: { nope: false } });
  expect(unknown.json().data.enabled).toEqual(['只能设置列出的通知类型']);
  // Not JSON at all.
  const text = await me.client.request({
    method: 'PUT',
    url: URL,
    payload: 'enabled=1',
    headers: { 'content-type': 'text/plain' },
  });
  expect(text.statusCode).toBeGreaterThanOrEqual(400);
  expect(text.statusCode).toBeLessThan(500);
  expect(await prefs(me.client)).toEqual(before);
});

test('concurrent saves of one user each land whole; the rows go with the account', async () => {
  const admin = await loggedInClient(ctx, ['admin']);
  const me = await loggedInClient(ctx);
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      put(me.client, { enabled: { 'ums.failed': i % 2 === 0, 'user.new-browser': false } }),
    ),
  );
  expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
  expect((await prefs(me.client)).kinds).toContainEqual({ kind: 'user.new-browser', enabled: false, forward: false });
  const del = await admin.client.request({
    method: 'DELETE',
    url: `/api/user/admin/users/${me.uid}`,
    payload: { confirm: me.username },
  });
  expect(del.statusCode).toBe(200);
  expect(
    await ctx.db.selectFrom('notification_preferences').select('kind').where('user_id', '=', me.uid).execute(),
  ).toEqual([]);
});
