import { sql } from 'kysely';
import { MAX_ACTIVE_TOKENS } from '../../../src/contract';
import { loggedInClient, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const check = (token: string | undefined, scope?: string, how: 'bearer' | 'query' = 'bearer') =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/token/check${scope ? `?scope=${encodeURIComponent(scope)}` : ''}${how === 'query' && token ? `${scope ? '&' : '?'}token=${token}` : ''}`,
    headers: how === 'bearer' && token ? { authorization: `Bearer ${token}` } : {},
  });

const tokenCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('lifecycle: create (shown once, stored hashed), use, list, revoke', async () => {
  const { client, username } = await loggedInClient(ctx);
  const created = await client.post('/api/user/tokens', { name: 'OCS 脚本', scopes: ['ocs:query'], expiresInDays: 30 });
  expect(created.statusCode).toBe(200);
  const { token, prefix, status, expiresAt, id } = created.json().data;
  expect(token).toMatch(/^pt_[A-Za-z0-9_-]{32}$/);
  expect(token.startsWith(prefix)).toBe(true);
  expect(prefix).toHaveLength(11);
  expect(status).toBe('active');
  expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(29.9 * 86400_000);

  const stored = await ctx.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  expect(JSON.stringify(stored)).not.toContain(token);

  const ok = await check(token, 'ocs:query');
  expect(ok.statusCode).toBe(200);
  expect(ok.json().data).toMatchObject({ username, scopes: ['ocs:query'], tokenId: id });
  expect((await check(token, undefined, 'query')).statusCode).toBe(200);

  const list = await client.get('/api/user/tokens?current=1&pageSize=10');
  expect(list.json()).toMatchObject({ success: true, total: 1, current: 1, pageSize: 10 });
  const item = list.json().data[0];
  expect(item).not.toHaveProperty('token');
  expect(item.lastUsedAt).not.toBeNull();
  expect(item.lastUsedIp).toBe('127.0.0.1');

  const revoked = await client.post(`/api/user/tokens/${id}/revoke`);
  expect(revoked.json().data.status).toBe('revoked');
  const after = await check(token, 'ocs:query');
  expect(after.statusCode).toBe(401);
  expect(after.json().errorMessage).toBe('访问令牌已撤销');
  expect((await client.get('/api/user/tokens?status=revoked')).json().total).toBe(1);
  expect((await client.get('/api/user/tokens?status=active')).json().total).toBe(0);
});

test('missing, unknown and malformed tokens get 401; a missing scope gets 403', async () => {
  const { client } = await loggedInClient(ctx);
  const { token } = (
    await client.post('/api/user/tokens', { name: 'ums', scopes: ['ums:send'], expiresInDays: null })
  ).json().data;
  expect((await check(undefined)).statusCode).toBe(401);
  expect((await check('pt_' + 'x'.repeat(32))).statusCode).toBe(401);
  expect((await check("' or 1=1 --")).statusCode).toBe(401);
  expect((await check('pt_' + 'x'.repeat(500))).statusCode).toBe(401);
  const wrong = await check(token, 'ocs:query');
  expect(wrong.statusCode).toBe(403);
  expect(wrong.json().errorMessage).toMatch(/没有 ocs:query 权限/);
  expect((await check(token, 'ums:send')).statusCode).toBe(200);
});

test('an expired token gets 401', async () => {
  const { client } = await loggedInClient(ctx);
  const { token, id } = (
    await client.post('/api/user/tokens', { name: 'short', scopes: ['ocs:query'], expiresInDays: 7 })
  ).json().data;
  await ctx.db
    .updateTable('api_tokens')
    .set({ expires_at: sql`now() - interval '1 second'` })
    .where('id', '=', id)
    .execute();
  const res = await check(token);
  expect(res.statusCode).toBe(401);
  expect(res.json().errorMessage).toBe('访问令牌已过期');
  expect((await client.get('/api/user/tokens')).json().data[0].status).toBe('expired');
});

test('last-used is written at most once a minute', async () => {
  const { client } = await loggedInClient(ctx);
  const { token, id } = (
    await client.post('/api/user/tokens', { name: 'busy', scopes: ['ocs:query'], expiresInDays: null })
  ).json().data;
  const lastUsed = async () =>
    (await ctx.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow())
      .last_used_at;
  expect(await lastUsed()).toBeNull();
  await check(token);
  const first = (await lastUsed())!.getTime();
  for (let i = 0; i < 5; i++) await check(token);
  expect((await lastUsed())!.getTime()).toBe(first);
  // A minute passes, for the database and for the server (which remembers verified tokens).
  await ctx.db
    .updateTable('api_tokens')
    .set({ last_used_at: sql`now() - interval '61 seconds'` })
    .where('id', '=', id)
    .execute();
  const aged = (await lastUsed())!.getTime();
  const realNow = Date.now;
  const later = realNow() + 61_000;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => later);
  try {
    await check(token);
  } finally {
    clock.mockRestore();
  }
  expect((await lastUsed())!.getTime()).toBeGreaterThan(aged);
});

test('a disabled owner makes the token stop working', async () => {
  const { client, uid } = await loggedInClient(ctx);
  const { token } = (
    await client.post('/api/user/tokens', { name: 't', scopes: ['ocs:query'], expiresInDays: null })
  ).json().data;
  await ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', uid).execute();
  expect((await check(token)).statusCode).toBe(401);
});

test('names are unique per user among live tokens; a revoked name can be reused', async () => {
  const a = await loggedInClient(ctx);
  const b = await loggedInClient(ctx);
  const first = await a.client.post('/api/user/tokens', { name: 'Script', scopes: ['ocs:query'], expiresInDays: null });
  expect(first.statusCode).toBe(200);
  const dup = await a.client.post('/api/user/tokens', { name: 'script', scopes: ['ums:send'], expiresInDays: 7 });
  expect(dup.statusCode).toBe(409);
  expect(dup.json().data.name).toBeDefined();
  expect(
    (await b.client.post('/api/user/tokens', { name: 'Script', scopes: ['ocs:query'], expiresInDays: null }))
      .statusCode,
  ).toBe(200);
  await a.client.post(`/api/user/tokens/${first.json().data.id}/revoke`);
  expect(
    (await a.client.post('/api/user/tokens', { name: 'Script', scopes: ['ocs:query'], expiresInDays: null }))
      .statusCode,
  ).toBe(200);
});

test(`at most ${MAX_ACTIVE_TOKENS} active tokens, even under concurrency`, async () => {
  const { client } = await loggedInClient(ctx);
  const results = await Promise.all(
    Array.from({ length: MAX_ACTIVE_TOKENS + 5 }, (_, i) =>
      client.post('/api/user/tokens', { name: `t${i}`, scopes: ['ocs:query'], expiresInDays: null }),
    ),
  );
  const codes = results.map((r) => r.statusCode);
  expect(codes.filter((c) => c === 200)).toHaveLength(MAX_ACTIVE_TOKENS);
  const refused = results.filter((r) => r.statusCode === 409);
  expect(refused).toHaveLength(5);
  expect(refused[0].json().errorMessage).toMatch(/最多只能有 20 个有效令牌/);
  expect((await client.get('/api/user/tokens?status=active')).json().total).toBe(MAX_ACTIVE_TOKENS);
});

test("one user cannot see or revoke another user's token", async () => {
  const a = await loggedInClient(ctx);
  const b = await loggedInClient(ctx);
  const { id, token } = (
    await a.client.post('/api/user/tokens', { name: 'mine', scopes: ['ocs:query'], expiresInDays: null })
  ).json().data;
  expect((await b.client.get('/api/user/tokens')).json().total).toBe(0);
  expect((await b.client.post(`/api/user/tokens/${id}/revoke`)).statusCode).toBe(404);
  expect((await check(token)).statusCode).toBe(200);
});

describe('bad input gives 400 and writes nothing', () => {
  const cases: [string, unknown][] = [
    ['empty body', {}],
    ['empty name', { name: '  ', scopes: ['ocs:query'], expiresInDays: null }],
    ['huge name', { name: 'n'.repeat(65), scopes: ['ocs:query'], expiresInDays: null }],
    ['no scopes', { name: 'x', scopes: [], expiresInDays: null }],
    ['unknown scope', { name: 'x', scopes: ['admin:all'], expiresInDays: null }],
    ['scopes wrong type', { name: 'x', scopes: 'ocs:query', expiresInDays: null }],
    ['bad expiry', { name: 'x', scopes: ['ocs:query'], expiresInDays: 365 }],
    ['expiry as string', { name: 'x', scopes: ['ocs:query'], expiresInDays: '7' }],
    ['missing expiry', { name: 'x', scopes: ['ocs:query'] }],
  ];
  test.each(cases)('%s', async (_name, payload) => {
    const { client } = await loggedInClient(ctx);
    const before = await tokenCount();
    const res = await client.post('/api/user/tokens', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(Object.keys(res.json().data).length).toBeGreaterThan(0);
    expect(await tokenCount()).toBe(before);
  });

  test('non-numeric and huge ids are 400, not 500', async () => {
    const { client } = await loggedInClient(ctx);
    expect((await client.post('/api/user/tokens/abc/revoke')).statusCode).toBe(400);
    expect((await client.post('/api/user/tokens/99999999999999/revoke')).statusCode).toBe(400);
    expect((await client.get('/api/user/tokens?pageSize=1000')).statusCode).toBe(400);
  });
});
