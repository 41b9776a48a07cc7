/**
 * The token cache: a verified token is checked without the database for a short while, and never
 * beyond a change that makes it fail. Revoking, disabling the owner, deleting the owner refuse the
 * very next request; expiry and scopes are still checked on every use.
 */
import type { CompiledQuery } from 'kysely';
import { LocalNotifier } from '../../../server/db/notify';
import { AuthCache } from '../../../server/modules/user/auth-cache';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';

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

/** Waits (boundedly) until the cache is live and holds the token (on PostgreSQL, LISTEN connects first). */
async function servedFromCache(token: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await statementsDuring(() => check(token))).length === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the token cache never served the token');
}

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
  const later = Date.now() + 8 * 86_400_000;
  const clock = jest.spyOn(Date, 'now').mockImplementation(() => later);
  try {
    const res = await check(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().errorMessage).toBe('访问令牌已过期');
  } finally {
    clock.mockRestore();
  }
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

  test('entries go after the TTL, and on a change of their token or user', () => {
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
    const later = Date.now() + 1_001;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => later);
    try {
      expect(cache.getToken('d')).toBeNull();
    } finally {
      clock.mockRestore();
    }
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
