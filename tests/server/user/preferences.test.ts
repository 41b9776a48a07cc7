/** The signed-in user's preferences for the shell: defaults, saved whole, strictly validated, private, gone with the user. */
import { Client, loggedInClient, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const URL = '/api/user/preferences';
const put = (c: Client, payload: unknown) => c.request({ method: 'PUT', url: URL, payload: payload as object });
const DARK = { dark: true, compact: true, primaryColor: '#531dab', siderCollapsed: true };
const DEFAULTS = { dark: false, compact: false, primaryColor: '#0958d9', siderCollapsed: false };

test('anonymous callers are refused, reading and writing', async () => {
  const anonymous = new Client(ctx.app);
  expect((await anonymous.get(URL)).statusCode).toBe(401);
  expect((await put(anonymous, DARK)).statusCode).toBe(401);
  expect(await ctx.db.selectFrom('user_preferences').selectAll().execute()).toEqual([]);
});

test('a new user gets the defaults; a save is answered and read back, and replaces the whole set', async () => {
  const { client } = await loggedInClient(ctx);
  expect((await client.get(URL)).json()).toEqual({ success: true, data: DEFAULTS });

  const saved = await put(client, DARK);
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual({ success: true, data: DARK });
  expect((await client.get(URL)).json().data).toEqual(DARK);

  const light = { ...DARK, dark: false, primaryColor: '#237804' };
  expect((await put(client, light)).json().data).toEqual(light);
  expect((await client.get(URL)).json().data).toEqual(light);
});

test('bad input is a 400 naming the field in Chinese, and changes nothing', async () => {
  const { client } = await loggedInClient(ctx);
  await put(client, DARK);
  const cases: Array<[unknown, string]> = [
    [{ ...DARK, dark: 'true' }, 'dark'],
    [{ ...DARK, compact: 1 }, 'compact'],
    [{ ...DARK, primaryColor: '#123456' }, 'primaryColor'],
    [{ ...DARK, primaryColor: 'red' }, 'primaryColor'],
    [{ ...DARK, primaryColor: '#0958d9\u0000' }, 'primaryColor'],
    [{ ...DARK, primaryColor: '\ud800' }, 'primaryColor'],
    [{ ...DARK, primaryColor: '{"a":1}' }, 'primaryColor'],
    [{ ...DARK, primaryColor: '#0958d9'.repeat(10_000) }, 'primaryColor'],
    [{ ...DARK, siderCollapsed: null }, 'siderCollapsed'],
    [{ dark: true, compact: true, primaryColor: '#531dab' }, 'siderCollapsed'],
  ];
  for (const [body, field] of cases) {
    const res = await put(client, body);
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.success).toBe(false);
    expect(Object.keys(json.data)).toContain(field);
    expect(JSON.stringify(json.data[field])).toMatch(/[\u4e00-\u9fff]/);
  }
  for (const body of [{}, [], '"dark"', 'null', '{"dark":true', '{"dark":{"dark":true}}']) {
    const res = await client.request({
      method: 'PUT',
      url: URL,
      headers: { 'content-type': 'application/json' },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(res.statusCode).toBe(400);
  }
  expect((await client.get(URL)).json().data).toEqual(DARK);
});

test('unknown keys are refused, not dropped', async () => {
  const { client } = await loggedInClient(ctx);
  for (const extra of [{ layout: 'top' }, { __proto__x: 1 }, { Dark: true }]) {
    const res = await put(client, { ...DARK, ...extra });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  }
  expect((await client.get(URL)).json().data).toEqual(DEFAULTS);
});

test("one user's preferences are not another's", async () => {
  const a = await loggedInClient(ctx);
  const b = await loggedInClient(ctx);
  await put(a.client, DARK);
  expect((await b.client.get(URL)).json().data).toEqual(DEFAULTS);
  await put(b.client, { ...DEFAULTS, primaryColor: '#006d75' });
  expect((await a.client.get(URL)).json().data).toEqual(DARK);
  expect((await b.client.get(URL)).json().data.primaryColor).toBe('#006d75');
});

test('concurrent saves of one user leave one whole set', async () => {
  const { client, uid } = await loggedInClient(ctx);
  const sets = Array.from({ length: 8 }, (_, i) => ({ ...DARK, dark: i % 2 === 0, compact: i % 3 === 0 }));
  const answers = await Promise.all(sets.map((s) => put(client, s)));
  expect(answers.map((r) => r.statusCode)).toEqual(sets.map(() => 200));
  const rows = await ctx.db.selectFrom('user_preferences').selectAll().where('user_id', '=', uid).execute();
  expect(rows).toHaveLength(1);
  const stored = (await client.get(URL)).json().data;
  expect(sets).toContainEqual(stored);
});

test('deleting a user removes their preferences', async () => {
  const admin = await loggedInClient(ctx, ['admin']);
  const gone = await loggedInClient(ctx);
  await put(gone.client, DARK);
  expect(
    await ctx.db.selectFrom('user_preferences').where('user_id', '=', gone.uid).selectAll().execute(),
  ).toHaveLength(1);
  const res = await admin.client.request({
    method: 'DELETE',
    url: `/api/user/admin/users/${gone.uid}`,
    payload: { confirm: gone.username },
  });
  expect(res.statusCode).toBe(200);
  expect(await ctx.db.selectFrom('user_preferences').where('user_id', '=', gone.uid).selectAll().execute()).toEqual([]);
});

test("a user's row removed from the database takes their preferences with it (foreign key)", async () => {
  const { client, uid } = await loggedInClient(ctx);
  await put(client, DARK);
  await ctx.db.deleteFrom('sessions').where('user_id', '=', uid).execute();
  await ctx.db.deleteFrom('users').where('id', '=', uid).execute();
  expect(await ctx.db.selectFrom('user_preferences').where('user_id', '=', uid).selectAll().execute()).toEqual([]);
});
