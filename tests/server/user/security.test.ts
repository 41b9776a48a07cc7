/**
 * What a leaked password must not leave behind, and an administrator's tools against it: personal
 * tokens revoked with a password change (when asked) and with an admin reset (by default), an admin's
 * revoke-all, and the unlock of a login the throttle holds back. Also: requests through a proxy while
 * TRUST_PROXY is off are warned about once.
 */
import { sql } from 'kysely';
import { Client, loggedInClient, startTestApp, uniqueName, type TestContext } from '../helpers';

let ctx: TestContext;
let admin: Client;
beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin'])).client;
});
afterAll(async () => {
  await ctx.close();
});

const check = (token: string) =>
  ctx.app.inject({ method: 'GET', url: '/api/token/check', headers: { authorization: `Bearer ${token}` } });

async function tokenOf(client: Client, name = 'script'): Promise<string> {
  const res = await client.post('/api/user/tokens', { name, scopes: ['ocs:query'], expiresInDays: null });
  expect(res.statusCode).toBe(200);
  return res.json().data.token as string;
}

const lastAudit = () =>
  ctx.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

describe('tokens and passwords', () => {
  test('a password change keeps the tokens unless asked; asked, every token stops at once', async () => {
    const u = await loggedInClient(ctx, [], 'first-password-1');
    const a = await tokenOf(u.client, 'a');
    const b = await tokenOf(u.client, 'b');
    expect((await check(a)).statusCode).toBe(200); // now in the token cache

    const keep = await u.client.post('/api/user/password', {
      oldPassword: 'first-password-1',
      newPassword: 'second-password-2',
    });
    expect(keep.json()).toEqual({ success: true, data: { endedSessions: 0, revokedTokens: 0 } });
    expect((await check(a)).statusCode).toBe(200);

    const revoke = await u.client.post('/api/user/password', {
      oldPassword: 'second-password-2',
      newPassword: 'third-password-3',
      revokeTokens: true,
    });
    expect(revoke.json()).toEqual({ success: true, data: { endedSessions: 0, revokedTokens: 2 } });
    for (const t of [a, b]) {
      const res = await check(t);
      expect(res.statusCode).toBe(401);
      expect(res.json().errorMessage).toBe('访问令牌已撤销');
    }
    expect((await u.client.get('/api/user/me')).statusCode).toBe(200); // the current session stays
  });

  test('a wrong type for revokeTokens is a 400 and changes nothing', async () => {
    const u = await loggedInClient(ctx, [], 'first-password-1');
    const res = await u.client.post('/api/user/password', {
      oldPassword: 'first-password-1',
      newPassword: 'second-password-2',
      revokeTokens: 'yes',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.revokeTokens).toBeDefined();
    expect(
      (await new Client(ctx.app).post('/api/user/login', { username: u.username, password: 'first-password-1' }))
        .statusCode,
    ).toBe(200);
  });

  test("an admin reset revokes the user's tokens by default, and keeps them when told to", async () => {
    const u = await loggedInClient(ctx);
    const t = await tokenOf(u.client);
    const kept = await admin.post(`/api/user/admin/users/${u.uid}/reset-password`, {
      generatePassword: true,
      revokeTokens: false,
    });
    expect(kept.json().data).toMatchObject({ endedSessions: 1, revokedTokens: 0 });
    expect((await check(t)).statusCode).toBe(200);

    const reset = await admin.post(`/api/user/admin/users/${u.uid}/reset-password`, { generatePassword: true });
    expect(reset.json().data).toMatchObject({ revokedTokens: 1 });
    expect((await check(t)).statusCode).toBe(401);
    const audit = await lastAudit();
    expect(audit.action).toBe('user.reset_password');
    expect(audit.after).toMatchObject({ revokedTokens: 1 });
  });

  test('an administrator revokes every token of a user; the list shows none left; audited', async () => {
    const u = await loggedInClient(ctx);
    const tokens = [await tokenOf(u.client, 'one'), await tokenOf(u.client, 'two'), await tokenOf(u.client, 'three')];
    for (const t of tokens) expect((await check(t)).statusCode).toBe(200);
    expect((await admin.get(`/api/user/admin/users/${u.uid}`)).json().data.activeTokens).toBe(3);

    const res = await admin.post(`/api/user/admin/users/${u.uid}/revoke-tokens`);
    expect(res.json()).toEqual({ success: true, data: { revokedTokens: 3 } });
    for (const t of tokens) expect((await check(t)).statusCode).toBe(401);
    expect((await admin.get(`/api/user/admin/users/${u.uid}`)).json().data.activeTokens).toBe(0);
    expect(await lastAudit()).toMatchObject({ action: 'user.revoke_tokens', target_id: String(u.uid) });
    // Again: nothing left to revoke.
    expect((await admin.post(`/api/user/admin/users/${u.uid}/revoke-tokens`)).json().data.revokedTokens).toBe(0);
    expect((await admin.post('/api/user/admin/users/999999/revoke-tokens')).statusCode).toBe(404);
  });

  test('a plain user can neither revoke nor unlock anyone', async () => {
    const u = await loggedInClient(ctx);
    const other = await loggedInClient(ctx);
    for (const path of ['revoke-tokens', 'unlock-login']) {
      expect((await u.client.post(`/api/user/admin/users/${other.uid}/${path}`)).statusCode).toBe(403);
      const anonymous = await ctx.app.inject({ method: 'POST', url: `/api/user/admin/users/${other.uid}/${path}` });
      expect(anonymous.statusCode).toBe(401);
    }
  });
});

describe('the login throttle, seen by an administrator', () => {
  test('the list counts recent failures; unlock clears them and strangers may try again at once', async () => {
    const username = uniqueName('held');
    const owner = new Client(ctx.app);
    await owner.post('/api/user/register', { username, password: 'right-password' });
    const uid = (await owner.get('/api/user/me')).json().data.uid as number;
    for (let i = 0; i < 5; i++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/user/login',
        remoteAddress: `10.20.0.${i}`,
        payload: { username, password: 'wrong-password' },
      });
    }
    const listed = await admin.get(`/api/user/admin/users?keyword=${username}`);
    expect(listed.json().data[0]).toMatchObject({ username, recentLoginFailures: 5 });
    const stranger = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/user/login',
        remoteAddress: '10.21.0.1',
        payload: { username, password: 'right-password' },
      });
    expect((await stranger()).statusCode).toBe(429);

    const unlock = await admin.post(`/api/user/admin/users/${uid}/unlock-login`);
    expect(unlock.json()).toEqual({ success: true, data: { clearedFailures: 5 } });
    expect(await lastAudit()).toMatchObject({ action: 'user.unlock_login', target_id: String(uid) });
    expect((await admin.get(`/api/user/admin/users/${uid}`)).json().data.recentLoginFailures).toBe(0);
    expect((await stranger()).statusCode).toBe(200);
  });

  test('failures older than the window are not counted', async () => {
    const u = await loggedInClient(ctx);
    await ctx.db
      .insertInto('login_failures')
      .values({
        username: u.username.toLowerCase(),
        ip: '10.22.0.1',
        device: null,
        at: sql`now() - interval '20 minutes'`,
      })
      .execute();
    expect((await admin.get(`/api/user/admin/users/${u.uid}`)).json().data.recentLoginFailures).toBe(0);
  });
});

describe('a proxy without TRUST_PROXY', () => {
  test('X-Forwarded-For with TRUST_PROXY off is warned about once, naming the setting', async () => {
    const before = ctx.logs.length;
    for (let i = 0; i < 3; i++) {
      await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-for': '203.0.113.7' } });
    }
    const warnings = ctx.logs.slice(before).filter((l) => l.includes('TRUST_PROXY'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!).level).toBe(40);
  });

  test('with TRUST_PROXY on there is no warning', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(proxied.logs.some((l) => l.includes('TRUST_PROXY'))).toBe(false);
    } finally {
      await proxied.close();
    }
  });
});
