/**
 * Two-factor sign-in: TOTP set-up with a QR code confirmed by a first code, ten
 * single-use recovery codes, the login's second step (no session on the password alone), codes under
 * the login throttle, "trust this browser", REQUIRE_2FA_ROLES, an administrator's audited reset, and
 * personal API tokens that 2FA leaves alone.
 */
import { sql } from 'kysely';
import QRCode from 'qrcode';
import { QR_OPTIONS } from '../../../server/modules/user/identity/two-factor';
import { createToken } from '../../../server/modules/user/tokens';
import { Client, loggedInClient, startTestApp, type TestContext } from '../helpers';
import { enrol, nextWindow, sessionOf, totp } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const PASSWORD = 'correct-horse-battery';

async function passwordStep(client: Client, username: string, password = PASSWORD, ip?: string) {
  return client.request({
    method: 'POST',
    url: '/api/user/login',
    payload: { username, password },
    ...(ip ? { remoteAddress: ip } : {}),
  });
}

const verify = (client: Client, code: string, trustBrowser = false, ip?: string) =>
  client.request({
    method: 'POST',
    url: '/api/user/login/verify',
    payload: { code, trustBrowser },
    ...(ip ? { remoteAddress: ip } : {}),
  });

const status = async (client: Client) => (await client.get('/api/user/2fa')).json().data;

describe('setting it up', () => {
  test('a QR code and a secret; a wrong first code changes nothing; the right one turns it on with ten recovery codes', async () => {
    const { client } = await loggedInClient(ctx);
    expect(await status(client)).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
      required: false,
      trustedBrowsers: 0,
    });

    const setup = await client.post('/api/user/2fa/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = setup.json().data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+.*issuer=%E7%BB%9F%E4%B8%80%E9%97%A8%E6%88%B7/);
    expect(qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(qrDataUrl.split(',')[1], 'base64').toString();
    expect(svg).toMatch(/^<svg [^>]*width="220"/);
    // The image is the QR code of the otpauth URL returned beside it, nothing else.
    expect(svg).toBe(await QRCode.toString(otpauthUrl, QR_OPTIONS));

    for (const code of ['000000', 'abcdef', '12345', '']) {
      const wrong = await client.post('/api/user/2fa/enable', { code });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().data.code).toBeDefined();
    }
    expect((await status(client)).enabled).toBe(false);

    const res = await client.post('/api/user/2fa/enable', { code: totp(secret) });
    expect(res.statusCode).toBe(200);
    const codes = res.json().data.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
    expect(await status(client)).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });

    // Stored: the secret sealed, the recovery codes only hashed.
    const uid = (await client.get('/api/user/me')).json().data.uid;
    const row = await ctx.db
      .selectFrom('user_two_factor')
      .selectAll()
      .where('user_id', '=', uid)
      .executeTakeFirstOrThrow();
    expect(row.secret_enc).toMatch(/^v1:/);
    expect(row.secret_enc).not.toContain(secret);
    const stored = await ctx.db
      .selectFrom('user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', uid)
      .execute();
    expect(stored.map((r) => r.code_hash)).not.toEqual(expect.arrayContaining([codes[0]]));
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true);

    // Set up once: a second set-up is refused while it is on.
    expect((await client.post('/api/user/2fa/setup')).statusCode).toBe(409);
  });

  test('without a set-up first, enabling is refused', async () => {
    const { client } = await loggedInClient(ctx);
    const res = await client.post('/api/user/2fa/enable', { code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorMessage).toContain('请先扫描二维码');
  });
});

describe('signing in with a second factor', () => {
  test('the password alone creates no session; the code does', async () => {
    const { client, username, uid } = await loggedInClient(ctx);
    const { secret } = await enrol(client);
    const browser = new Client(ctx.app);

    const first = await passwordStep(browser, username);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, data: { challenge: 'totp' } });
    expect(sessionOf(browser)).toBeUndefined();
    expect(browser.cookies.get('portal_mfa')).toBeDefined();
    const challengeCookie = first.cookies.find((c) => c.name === 'portal_mfa')!;
    expect(challengeCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/user' });
    expect((await browser.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    const sessions = await ctx.db.selectFrom('sessions').select('id').where('user_id', '=', uid).execute();
    expect(sessions).toHaveLength(1); // only the enrolling client's

    const wrong = await verify(browser, '000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errorMessage).toMatch(/验证码不正确，还可以再试 4 次/);
    expect(sessionOf(browser)).toBeUndefined();

    await nextWindow(ctx.db, uid);
    const ok = await verify(browser, totp(secret));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ uid, username });
    expect(sessionOf(browser)).toBeDefined();
    expect(browser.cookies.get('portal_mfa')).toBeUndefined();
    expect((await browser.get('/api/user/me')).statusCode).toBe(200);

    // The challenge was used up: the same cookie cannot open a second session.
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login/verify',
      headers: { cookie: `portal_mfa=${challengeCookie.value}` },
      payload: { code: totp(secret, 1) },
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().errorCode).toBe('CHALLENGE_EXPIRED');
  });

  test('a TOTP code works once: replayed within its 30 seconds it is refused', async () => {
    const { client, username, uid } = await loggedInClient(ctx);
    const { secret } = await enrol(client);
    await nextWindow(ctx.db, uid);
    const code = totp(secret);
    const a = new Client(ctx.app);
    await passwordStep(a, username);
    expect((await verify(a, code)).statusCode).toBe(200);
    const b = new Client(ctx.app);
    await passwordStep(b, username);
    expect((await verify(b, code)).statusCode).toBe(401);
    // An older code (the previous step) after a newer one was used: refused too.
    expect((await verify(b, totp(secret, -1))).statusCode).toBe(401);
    // The next step's code (clock drift of one step is allowed) works.
    expect((await verify(b, totp(secret, 1))).statusCode).toBe(200);
  });

  test('a recovery code signs in once, in any case and with or without dashes', async () => {
    const { client, username } = await loggedInClient(ctx);
    const { recoveryCodes } = await enrol(client);
    const a = new Client(ctx.app);
    await passwordStep(a, username);
    expect((await verify(a, ` ${recoveryCodes[3].toUpperCase().replace(/-/g, ' ')} `)).statusCode).toBe(200);
    expect((await status(a)).recoveryCodesLeft).toBe(9);
    const b = new Client(ctx.app);
    await passwordStep(b, username);
    const reused = await verify(b, recoveryCodes[3]);
    expect(reused.statusCode).toBe(401);
    expect((await verify(b, recoveryCodes[4])).statusCode).toBe(200);
  });

  test('five wrong codes end the challenge: the password must be entered again', async () => {
    const { client, username, uid } = await loggedInClient(ctx);
    const { secret } = await enrol(client);
    const browser = new Client(ctx.app);
    await passwordStep(browser, username);
    for (let i = 0; i < 4; i++) expect((await verify(browser, '111111')).statusCode).toBe(401);
    const fifth = await verify(browser, '111111');
    expect(fifth.json()).toMatchObject({
      errorCode: 'CHALLENGE_EXPIRED',
      errorMessage: '验证码错误次数过多，请重新输入密码登录',
    });
    await nextWindow(ctx.db, uid);
    const late = await verify(browser, totp(secret));
    expect(late.json().errorCode).toBe('CHALLENGE_EXPIRED');
    expect(sessionOf(browser)).toBeUndefined();
  });

  test('wrong codes count in the login throttle: an unknown browser then waits, even with the right password', async () => {
    const { client, username } = await loggedInClient(ctx);
    await enrol(client);
    const key = username.toLowerCase();
    for (let i = 0; i < 5; i++) {
      const stranger = new Client(ctx.app);
      await passwordStep(stranger, username, PASSWORD, `10.60.0.${i + 1}`);
      expect((await verify(stranger, '222222', false, `10.60.0.${i + 1}`)).statusCode).toBe(401);
    }
    const failures = await ctx.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('username', '=', key)
      .executeTakeFirstOrThrow();
    expect(Number(failures.n)).toBe(5);
    const next = new Client(ctx.app);
    const held = await passwordStep(next, username, PASSWORD, '10.60.1.1');
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBeDefined();
  });

  test('an expired challenge is refused with a clear message', async () => {
    const { client, username, uid } = await loggedInClient(ctx);
    const { secret } = await enrol(client);
    const browser = new Client(ctx.app);
    await passwordStep(browser, username);
    await ctx.db
      .updateTable('login_challenges')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('user_id', '=', uid)
      .execute();
    await nextWindow(ctx.db, uid);
    const res = await verify(browser, totp(secret));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ errorCode: 'CHALLENGE_EXPIRED', errorMessage: '登录已过期，请重新输入密码' });
  });

  test('bad input to the second step is a 400 with field errors', async () => {
    const browser = new Client(ctx.app);
    for (const payload of [{}, { code: '' }, { code: 'x'.repeat(40) }, { code: '123456', trustBrowser: 'yes' }]) {
      const res = await browser.post('/api/user/login/verify', payload);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().data).length).toBeGreaterThan(0);
    }
  });

  test('"trust this browser" skips the code there for 30 days, nowhere else; forgetting ends it', async () => {
    const { client, username, uid } = await loggedInClient(ctx);
    const { secret } = await enrol(client);
    const mine = new Client(ctx.app);
    await passwordStep(mine, username);
    await nextWindow(ctx.db, uid);
    expect((await verify(mine, totp(secret), true)).statusCode).toBe(200);
    const device = await ctx.db
      .selectFrom('login_devices')
      .select('trusted_until')
      .where('user_id', '=', uid)
      .where('trusted_until', 'is not', null)
      .executeTakeFirstOrThrow();
    const days = (device.trusted_until!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    await mine.post('/api/user/logout');
    const again = await passwordStep(mine, username);
    expect(again.json().data).toMatchObject({ username }); // no challenge on the trusted browser
    expect((await status(mine)).trustedBrowsers).toBe(1);

    const other = new Client(ctx.app);
    expect((await passwordStep(other, username)).json().data).toEqual({ challenge: 'totp' });

    expect((await mine.post('/api/user/2fa/forget-browsers')).json().data.forgotten).toBe(1);
    await mine.post('/api/user/logout');
    expect((await passwordStep(mine, username)).json().data).toEqual({ challenge: 'totp' });
  });
});

describe('managing it', () => {
  test('turning it off needs a code; then the password alone signs in again', async () => {
    const { client, username, uid } = await loggedInClient(ctx);
    const { secret } = await enrol(client);
    const wrong = await client.post('/api/user/2fa/disable', { code: '999999' });
    expect(wrong.statusCode).toBe(400);
    expect((await status(client)).enabled).toBe(true);
    await nextWindow(ctx.db, uid);
    expect((await client.post('/api/user/2fa/disable', { code: totp(secret) })).statusCode).toBe(200);
    expect((await status(client)).enabled).toBe(false);
    expect(await ctx.db.selectFrom('user_recovery_codes').select('id').where('user_id', '=', uid).execute()).toEqual(
      [],
    );
    const browser = new Client(ctx.app);
    expect((await passwordStep(browser, username)).json().data).toMatchObject({ username });
  });

  test('new recovery codes replace the old ones, which stop working', async () => {
    const { client, username } = await loggedInClient(ctx);
    const { recoveryCodes: old } = await enrol(client);
    const res = await client.post('/api/user/2fa/recovery-codes', { code: old[0] });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => old.includes(c))).toBe(false);
    const browser = new Client(ctx.app);
    await passwordStep(browser, username);
    expect((await verify(browser, old[1])).statusCode).toBe(401);
    expect((await verify(browser, fresh[0])).statusCode).toBe(200);
  });

  test('personal API tokens keep working for a user with two-factor sign-in', async () => {
    const { client, uid } = await loggedInClient(ctx);
    const created = await client.post('/api/user/tokens', {
      name: 'script',
      scopes: ['ocs:query'],
      expiresInDays: null,
    });
    await enrol(client);
    const check = await ctx.app.inject({
      method: 'GET',
      url: '/api/token/check',
      headers: { authorization: `Bearer ${created.json().data.token}` },
    });
    expect(check.statusCode).toBe(200);
    expect(check.json().data.uid).toBe(uid);
  });
});

describe('an administrator resets a second factor', () => {
  test("audited; the user's sessions end; the password alone signs in next", async () => {
    const admin = await loggedInClient(ctx, ['admin']);
    const u = await loggedInClient(ctx);
    await enrol(u.client);
    const res = await admin.client.post(`/api/user/admin/users/${u.uid}/reset-2fa`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ twoFactorEnabled: false, recoveryCodesLeft: 0 });
    expect((await u.client.get('/api/user/me')).statusCode).toBe(401);
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.reset_2fa')
      .where('target_id', '=', String(u.uid))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor_id: admin.uid,
      before: { twoFactor: true },
      after: { twoFactor: false, endedSessions: 1 },
    });
    const browser = new Client(ctx.app);
    expect((await passwordStep(browser, u.username)).json().data).toMatchObject({ username: u.username });
  });

  test('a plain user may not; an unknown user is a 404', async () => {
    const admin = await loggedInClient(ctx, ['admin']);
    const u = await loggedInClient(ctx);
    const other = await loggedInClient(ctx);
    expect((await u.client.post(`/api/user/admin/users/${other.uid}/reset-2fa`)).statusCode).toBe(403);
    expect((await admin.client.post('/api/user/admin/users/999999/reset-2fa')).statusCode).toBe(404);
  });
});

describe('REQUIRE_2FA_ROLES', () => {
  let strict: TestContext;
  beforeAll(async () => {
    strict = await startTestApp({ REQUIRE_2FA_ROLES: 'admin,njit' });
  });
  afterAll(async () => {
    await strict.close();
  });

  test('an administrator without it may only set it up (and sign out) until it is on', async () => {
    const admin = await loggedInClient(strict, ['admin']);
    const me = await admin.client.get('/api/user/me');
    expect(me.json().data).toMatchObject({ mustEnrollTwoFactor: true });
    for (const url of ['/api/user/admin/users', '/api/user/profile', '/api/user/tokens', '/api/ocs/wallet']) {
      const res = await admin.client.get(url);
      expect({ url, status: res.statusCode, code: res.json().errorCode }).toEqual({
        url,
        status: 403,
        code: 'TWO_FACTOR_ENROLLMENT_REQUIRED',
      });
    }
    expect((await admin.client.get('/api/user/2fa')).json().data).toMatchObject({ enabled: false, required: true });

    // A token made before the rule keeps working: tokens are not sessions.
    const token = await createToken(strict.db, admin.uid, { name: 'ci', scopes: ['ums:send'], expiresInDays: null });
    const check = await strict.app.inject({
      method: 'GET',
      url: '/api/token/check',
      headers: { authorization: `Bearer ${token.token}` },
    });
    expect(check.statusCode).toBe(200);

    const { secret } = await enrol(admin.client);
    expect((await admin.client.get('/api/user/me')).json().data.mustEnrollTwoFactor).toBeUndefined();
    expect((await admin.client.get('/api/user/admin/users')).statusCode).toBe(200);

    // Required: it cannot be turned off.
    await nextWindow(strict.db, admin.uid);
    const off = await admin.client.post('/api/user/2fa/disable', { code: totp(secret) });
    expect(off.statusCode).toBe(403);
    expect(off.json().errorMessage).toContain('要求使用两步验证');
  });

  test('a user without those roles is not held; njit is', async () => {
    const plain = await loggedInClient(strict);
    expect((await plain.client.get('/api/user/profile')).statusCode).toBe(200);
    const njit = await loggedInClient(strict, ['njit']);
    expect((await njit.client.get('/api/njit/overview')).json().errorCode).toBe('TWO_FACTOR_ENROLLMENT_REQUIRED');
    expect((await njit.client.post('/api/user/logout')).statusCode).toBe(200);
  });

  test('the rule reaches an account when it gets the role', async () => {
    const u = await loggedInClient(strict);
    await strict.db
      .updateTable('users')
      .set({ roles: ['njit'] })
      .where('id', '=', u.uid)
      .execute();
    expect((await u.client.get('/api/user/profile')).json().errorCode).toBe('TWO_FACTOR_ENROLLMENT_REQUIRED');
  });
});
