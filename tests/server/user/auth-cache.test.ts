/**
 * The sign-in cache: a verified token or session is checked without the database for a short while,
 * and never beyond a change that makes it fail or changes what it carries. Revoking, signing out,
 * ending a session, disabling or deleting the owner refuse the very next request; a new role,
 * nickname or second factor shows in the very next one; expiry and scopes are still checked on every use.
 */
import { sql, type CompiledQuery } from 'kysely';
import { LocalNotifier } from '../../../server/db/notify';
import { AuthCache } from '../../../server/modules/user/auth-cache';
import { Client, loggedInClient, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
let admin: Client;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin'])).client;
});
afterAll(async () => {
  await ctx.close();
});

const check = (token: string, scope?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/token/check${scope ? `?scope=${scope}` : ''}`,
    headers: { authorization: `Bearer ${token}` },
  });

async function tokenOf(client: Client, expiresInDays: number | null = null) {
  const res = await client.post('/api/user/tokens', {
    name: `t${Math.random()}`,
    scopes: ['ocs:query'],
    expiresInDays,
  });
  return res.json().data as { token: string; id: number };
}

async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const spy = jest.spyOn(ctx.db.getExecutor(), 'executeQuery');
  try {
    await fn();
    return spy.mock.calls.map(([q]) => (q as CompiledQuery).sql);
  } finally {
    spy.mockRestore();
  }
}

/** Runs `fn` with Date.now() moved `ms` ahead (the cache's clocks read it). */
async function inTheFuture(ms: number, fn: () => unknown): Promise<void> {
  const later = Date.now() + ms;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => later);
  try {
    await fn();
  } finally {
    clock.mockRestore();
  }
}

/** Waits (boundedly) until `fn` runs without a statement: the cache is live (on PostgreSQL, LISTEN connects first) and holds what it checks. */
async function untilCached(what: string, fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await statementsDuring(fn)).length === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the cache never served the ${what}`);
}

const servedFromCache = (token: string) => untilCached('token', () => check(token));

test('a token checked once is checked again without the database', async () => {
  const { client } = await loggedInClient(ctx);
  const { token } = await tokenOf(client);
  expect((await check(token)).statusCode).toBe(200);
  await servedFromCache(token);
  const statements = await statementsDuring(async () => {
    expect((await check(token, 'ocs:query')).statusCode).toBe(200);
    expect((await check(token, 'ums:send')).statusCode).toBe(403); // scopes still checked
  });
  expect(statements).toEqual([]);
});

test('revoking refuses the very next request', async () => {
  const { client } = await loggedInClient(ctx);
  const { token, id } = await tokenOf(client);
  expect((await check(token)).statusCode).toBe(200);
  expect((await client.post(`/api/user/tokens/${id}/revoke`, {})).statusCode).toBe(200);
  const res = await check(token);
  expect(res.statusCode).toBe(401);
  expect(res.json().errorMessage).toBe('访问令牌已撤销');
});

test('disabling the owner refuses at once; enabling brings the token back; a reset keeps it only when asked', async () => {
  const { client, uid } = await loggedInClient(ctx);
  const { token } = await tokenOf(client);
  expect((await check(token)).statusCode).toBe(200);
  const patch = (body: object) =>
    admin.request({ method: 'PATCH', url: `/api/user/admin/users/${uid}`, payload: body });
  expect((await patch({ status: 'disabled' })).statusCode).toBe(200);
  expect((await check(token)).json().errorMessage).toBe('令牌所属账号已停用');
  expect((await patch({ status: 'active' })).statusCode).toBe(200);
  expect((await check(token)).statusCode).toBe(200);
  const keep = await admin.post(`/api/user/admin/users/${uid}/reset-password`, {
    generatePassword: true,
    revokeTokens: false,
  });
  expect(keep.json().data.revokedTokens).toBe(0);
  expect((await check(token)).statusCode).toBe(200);
  // By default an administrator's reset revokes the user's tokens, at once.
  const reset = await admin.post(`/api/user/admin/users/${uid}/reset-password`, { generatePassword: true });
  expect(reset.json().data.revokedTokens).toBe(1);
  expect((await check(token)).statusCode).toBe(401);
});

test('deleting the owner (and so the tokens) refuses at once', async () => {
  const { client, uid, username } = await loggedInClient(ctx);
  const { token } = await tokenOf(client);
  expect((await check(token)).statusCode).toBe(200);
  const res = await admin.request({
    method: 'DELETE',
    url: `/api/user/admin/users/${uid}`,
    payload: { confirm: username },
  });
  expect(res.statusCode).toBe(200);
  expect((await check(token)).statusCode).toBe(401);
});

test('a cached token that expires is refused when it expires', async () => {
  const { client } = await loggedInClient(ctx);
  const { token } = await tokenOf(client, 7);
  expect((await check(token)).statusCode).toBe(200);
  await inTheFuture(8 * 86_400_000, async () => {
    const res = await check(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().errorMessage).toBe('访问令牌已过期');
  });
});

describe('sessions', () => {
  const me = (client: Client) => client.get('/api/user/me');
  /** Another browser holding the same session cookie (it keeps it after the first one signs out). */
  const copyOf = (client: Client) => {
    const c = new Client(ctx.app);
    c.cookies = new Map(client.cookies);
    return c;
  };

  const sessionCached = (client: Client) => untilCached('session', () => me(client));

  test('a session resolved once is resolved again without the database', async () => {
    const { client, username } = await loggedInClient(ctx);
    expect((await me(client)).json().data.username).toBe(username);
    await sessionCached(client);
    const statements = await statementsDuring(async () => {
      for (let i = 0; i < 3; i++) expect((await me(client)).statusCode).toBe(200);
    });
    expect(statements).toEqual([]);
  });

  test('signing out refuses the very next request with the same cookie', async () => {
    const { client } = await loggedInClient(ctx);
    const kept = copyOf(client);
    await sessionCached(kept);
    expect((await client.post('/api/user/logout', {})).statusCode).toBe(200);
    expect((await me(kept)).statusCode).toBe(401);
  });

  test('ending one session, or all others, refuses them at once; the current one stays', async () => {
    const { client, username } = await loggedInClient(ctx);
    const second = new Client(ctx.app);
    expect((await second.post('/api/user/login', { username, password: 'correct-horse-battery' })).statusCode).toBe(
      200,
    );
    const third = new Client(ctx.app);
    expect((await third.post('/api/user/login', { username, password: 'correct-horse-battery' })).statusCode).toBe(200);
    await sessionCached(second);
    await sessionCached(third);
    const list = (await client.get('/api/user/sessions')).json().data as { id: number; current: boolean }[];
    expect(list).toHaveLength(3);
    // The newest is the third browser's.
    const others = list.filter((x) => !x.current).sort((x, y) => y.id - x.id);
    expect((await client.request({ method: 'DELETE', url: `/api/user/sessions/${others[0]!.id}` })).statusCode).toBe(
      200,
    );
    expect((await me(third)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
    expect((await client.post('/api/user/sessions/end-others', {})).json().data.ended).toBe(1);
    expect((await me(second)).statusCode).toBe(401);
    expect((await me(client)).statusCode).toBe(200);
  });

  test('a new role, a new nickname and a disabled account show in the very next request', async () => {
    const { client, uid } = await loggedInClient(ctx);
    await sessionCached(client);
    const patch = (body: object) =>
      admin.request({ method: 'PATCH', url: `/api/user/admin/users/${uid}`, payload: body });
    expect((await patch({ roles: ['njit'] })).statusCode).toBe(200);
    expect((await me(client)).json().data.roles).toEqual(['njit']);
    await sessionCached(client);
    expect(
      (await client.request({ method: 'PATCH', url: '/api/user/profile', payload: { nickname: '新昵称' } })).statusCode,
    ).toBe(200);
    expect((await me(client)).json().data.nickname).toBe('新昵称');
    await sessionCached(client);
    expect((await patch({ status: 'disabled' })).statusCode).toBe(200);
    expect((await me(client)).statusCode).toBe(401);
  });

  test('a cached session that expires is refused when it expires', async () => {
    const { client, uid } = await loggedInClient(ctx);
    await sql`update sessions set expires_at = now() + interval '10 seconds' where user_id = ${uid}`.execute(ctx.db);
    await sessionCached(client);
    // Expired in the database too, without an announcement: only the cached expiry can refuse it in time.
    await sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${uid}`.execute(ctx.db);
    await inTheFuture(11_000, async () => {
      expect((await me(client)).statusCode).toBe(401);
    });
  });

  test('a session ended behind the cache (no announcement) is refused at its next touch, within a minute', async () => {
    const { client, uid } = await loggedInClient(ctx);
    await sessionCached(client);
    await sql`delete from sessions where user_id = ${uid}`.execute(ctx.db);
    const kept = copyOf(client); // the first refusal drops the client's cookie; the second sends it again
    await inTheFuture(61_000, async () => {
      expect((await me(client)).statusCode).toBe(401);
      expect((await me(kept)).statusCode).toBe(401);
    });
  });

  test('a session in use still records its last use, at most once a minute', async () => {
    const { client, uid } = await loggedInClient(ctx);
    await sessionCached(client);
    const seen = async () =>
      (
        await sql<{ t: Date }>`select last_seen_at as t from sessions where user_id = ${uid}`.execute(ctx.db)
      ).rows[0]!.t.getTime();
    const first = await seen();
    await inTheFuture(61_000, async () => {
      const statements = await statementsDuring(() => me(client));
      expect(statements.filter((q) => /^update "sessions"/.test(q))).toHaveLength(1);
      expect((await statementsDuring(() => me(client))).length).toBe(0);
    });
    expect(await seen()).toBeGreaterThanOrEqual(first);
  });
});

describe('AuthCache', () => {
  const value = (tokenId: number, userId: number) => ({
    auth: { tokenId, userId, username: 'u', roles: [], scopes: [] },
    expiresAt: null,
    lastUsedAt: null,
  });

  test('a read that started before a change is not kept', () => {
    const cache = new AuthCache(new LocalNotifier());
    const before = cache.generation;
    cache.forget({ userId: 1 });
    cache.putToken('h1', value(1, 1), before);
    expect(cache.getToken('h1')).toBeNull();
    cache.putToken('h1', value(1, 1), cache.generation);
    expect(cache.getToken('h1')).not.toBeNull();
  });

  test('entries go after the TTL, and on a change of their token or user', async () => {
    const cache = new AuthCache(new LocalNotifier(), 1_000);
    cache.getToken('warm-up'); // starts listening
    cache.putToken('a', value(1, 10), cache.generation);
    cache.putToken('b', value(2, 10), cache.generation);
    cache.putToken('c', value(3, 11), cache.generation);
    cache.forget({ tokenId: 3 });
    expect(cache.getToken('c')).toBeNull();
    cache.forget({ userId: 10 });
    expect([cache.getToken('a'), cache.getToken('b')]).toEqual([null, null]);
    cache.putToken('d', value(4, 12), cache.generation);
    await inTheFuture(1_001, async () => {
      expect(cache.getToken('d')).toBeNull();
    });
  });

  test('another cache on the same notifier hears the change', async () => {
    const notifier = new LocalNotifier();
    const a = new AuthCache(notifier);
    const b = new AuthCache(notifier);
    b.getToken('warm-up');
    b.putToken('x', value(5, 20), b.generation);
    await notifier.notify('portal_token_changes', JSON.stringify({ tokenId: 5 }));
    expect(b.getToken('x')).toBeNull();
    expect(a.getToken('x')).toBeNull();
  });
});
