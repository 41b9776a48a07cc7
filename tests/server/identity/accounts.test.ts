/**
 * Accounts and SSO identities: the first sign-in of an unknown identity links it to
 * an existing account by that account's password (once), or an administrator links it, or — with
 * SSO_AUTO_CREATE — a new account is made (under a free name: a local account of the same name is only
 * ever linked by its password). Linking from the personal center, unlinking while a way to sign in
 * remains, administrators' view, links and password switch (audited), and a disabled account.
 * CAS (tests/fixtures/fake-cas.ts) is the identity server here; the portal is driven through inject.
 */
import { sql } from 'kysely';
import { FakeCas } from '../../fixtures/fake-cas';
import { Client, loggedInClient, startTestApp, uniqueName, type TestContext } from '../helpers';
import { enrol, totp } from './helpers';

const PORTAL = 'http://portal.test';
let cas: FakeCas;
let ctx: TestContext;

beforeAll(async () => {
  cas = await new FakeCas().start();
  ctx = await startTestApp({ CAS_URL: cas.url, PUBLIC_URL: PORTAL, SSO_ROLE_MAP: 'type=staff:njit' });
});
afterAll(async () => {
  await ctx?.close();
  await cas?.stop();
});

const local = (url: string) => url.replace(PORTAL, '');

/** A CAS sign-in (or link) of `subject` by this client, up to the portal's redirect. */
async function casReturn(client: Client, subject: string, start = '/api/user/sso/cas/login') {
  const res = await client.get(start);
  expect(res.statusCode).toBe(302);
  const service = new URL(res.headers.location as string).searchParams.get('service')!;
  return client.get(local(`${service}&ticket=${cas.issueTicket(subject, service)}`));
}

const fresh = () => uniqueName('cas').toLowerCase();

describe('an identity no account is linked to (SSO_AUTO_CREATE off)', () => {
  test('waits in this browser; the local password links it once; then it signs in directly', async () => {
    const subject = fresh();
    cas.account(subject, 'x', { type: 'staff', cn: '王老师' });
    const owner = await loggedInClient(ctx, [], 'local-password-1');
    const browser = new Client(ctx.app);
    const back = await casReturn(browser, subject, '/api/user/sso/cas/login?redirect=%2Fnjit%2Foverview');
    expect(back.headers.location).toBe('/user/ssoBind?redirect=%2Fnjit%2Foverview');
    expect(browser.cookies.get('portal_sid')).toBeUndefined();
    const pending = await browser.get('/api/user/sso/pending');
    expect(pending.json().data).toEqual({
      provider: 'cas',
      providerName: '统一身份认证登录',
      subject,
      displayName: '王老师',
      email: null,
      canCreate: false,
    });
    expect((await browser.post('/api/user/sso/pending/create')).statusCode).toBe(403);

    const wrong = await browser.post('/api/user/sso/pending/link', { username: owner.username, password: 'nope-nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errorMessage).toBe('用户名或密码错误');
    const failures = await ctx.db
      .selectFrom('login_failures')
      .select('id')
      .where('username', '=', owner.username.toLowerCase())
      .execute();
    expect(failures).toHaveLength(1); // the login throttle counts it

    const linked = await browser.post('/api/user/sso/pending/link', {
      username: owner.username,
      password: 'local-password-1',
    });
    expect(linked.statusCode).toBe(200);
    expect(linked.json().data).toMatchObject({ uid: owner.uid, roles: ['njit'] }); // mapped at the first sign-in
    expect(browser.cookies.get('portal_sso_pending')).toBeUndefined();
    expect((await browser.get('/api/user/sso/pending')).json().data).toBeNull();

    const again = new Client(ctx.app);
    expect((await casReturn(again, subject)).headers.location).toBe('/home');
    expect((await again.get('/api/user/me')).json().data.uid).toBe(owner.uid);
  });

  test('an account with two-factor sign-in asks for the code after linking', async () => {
    const subject = fresh();
    const owner = await loggedInClient(ctx, [], 'local-password-2');
    const { secret } = await enrol(owner.client);
    const browser = new Client(ctx.app);
    await casReturn(browser, subject);
    const linked = await browser.post('/api/user/sso/pending/link', {
      username: owner.username,
      password: 'local-password-2',
    });
    expect(linked.json().data).toEqual({ challenge: 'totp' });
    expect((await browser.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    expect((await browser.post('/api/user/login/verify', { code: totp(secret, 1) })).statusCode).toBe(200);
  });

  test('a pending identity expires; a browser without one is told so', async () => {
    const browser = new Client(ctx.app);
    await casReturn(browser, fresh());
    await ctx.db
      .updateTable('sso_states')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('purpose', '=', 'pending')
      .execute();
    expect((await browser.get('/api/user/sso/pending')).json().data).toBeNull();
    const res = await browser.post('/api/user/sso/pending/link', { username: 'admin', password: 'whatever-1' });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorCode).toBe('SSO_PENDING_EXPIRED');
    expect(
      (await new Client(ctx.app).post('/api/user/sso/pending/link', { username: 'a', password: 'b' })).statusCode,
    ).toBe(401);
    const bad = await browser.post('/api/user/sso/pending/link', { username: '', password: '' });
    expect(bad.statusCode).toBe(400);
  });

  test('an administrator links an identity; one linked elsewhere is a 409; both audited on success', async () => {
    const admin = await loggedInClient(ctx, ['admin']);
    const u = await loggedInClient(ctx);
    const other = await loggedInClient(ctx);
    const subject = fresh();
    const res = await admin.client.post(`/api/user/admin/users/${u.uid}/identities`, { provider: 'cas', subject });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.identities).toMatchObject([{ provider: 'cas', subject }]);
    const clash = await admin.client.post(`/api/user/admin/users/${other.uid}/identities`, {
      provider: 'cas',
      subject,
    });
    expect(clash.statusCode).toBe(409);
    const second = await admin.client.post(`/api/user/admin/users/${u.uid}/identities`, {
      provider: 'cas',
      subject: fresh(),
    });
    expect(second.statusCode).toBe(409); // one identity per provider per account
    for (const body of [{ provider: 'ldap', subject: 'x' }, { provider: 'cas', subject: '' }, { provider: 'cas' }]) {
      expect((await admin.client.post(`/api/user/admin/users/${u.uid}/identities`, body)).statusCode).toBe(400);
    }
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.link_identity')
      .where('target_id', '=', String(u.uid))
      .execute();
    expect(audit).toHaveLength(1);

    const browser = new Client(ctx.app);
    expect((await casReturn(browser, subject)).headers.location).toBe('/home');
    expect((await browser.get('/api/user/me')).json().data.uid).toBe(u.uid);
    expect(
      (await u.client.post(`/api/user/admin/users/${other.uid}/identities`, { provider: 'cas', subject: 'y' }))
        .statusCode,
    ).toBe(403);
  });

  test('a disabled account is not signed in', async () => {
    const admin = await loggedInClient(ctx, ['admin']);
    const u = await loggedInClient(ctx);
    const subject = fresh();
    await admin.client.post(`/api/user/admin/users/${u.uid}/identities`, { provider: 'cas', subject });
    await ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', u.uid).execute();
    const browser = new Client(ctx.app);
    expect((await casReturn(browser, subject)).headers.location).toBe('/user/login?sso_error=disabled');
    expect(browser.cookies.get('portal_sid')).toBeUndefined();
  });
});

describe('linking from the personal center and unlinking', () => {
  test('a signed-in user links a CAS identity; one already linked elsewhere is refused with a message', async () => {
    const u = await loggedInClient(ctx);
    const subject = fresh();
    const done = await casReturn(u.client, subject, '/api/user/sso/cas/link');
    expect(done.headers.location).toBe('/user/security?linked=1');
    expect((await u.client.get('/api/user/identities')).json().data).toMatchObject({
      passwordLogin: true,
      identities: [{ provider: 'cas', subject }],
    });

    const v = await loggedInClient(ctx);
    const clash = await casReturn(v.client, subject, '/api/user/sso/cas/link');
    expect(clash.headers.location).toBe('/user/security?sso_error=conflict');
    expect((await v.client.get('/api/user/identities')).json().data.identities).toEqual([]);
  });

  test('a link finished by another session is refused (the state belongs to who started it)', async () => {
    const u = await loggedInClient(ctx);
    const start = await u.client.get('/api/user/sso/cas/link');
    const service = new URL(start.headers.location as string).searchParams.get('service')!;
    const v = await loggedInClient(ctx);
    v.client.cookies.set('portal_sso_state', u.client.cookies.get('portal_sso_state')!);
    const res = await v.client.get(local(`${service}&ticket=${cas.issueTicket(fresh(), service)}`));
    expect(res.headers.location).toBe('/user/security?sso_error=state');
    expect((await v.client.get('/api/user/identities')).json().data.identities).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user/sso/cas/link' })).statusCode).toBe(401);
  });

  test('unlinking: allowed while the password works, refused for the last way in, allowed again with another identity', async () => {
    const admin = await loggedInClient(ctx, ['admin']);
    const u = await loggedInClient(ctx);
    await casReturn(u.client, fresh(), '/api/user/sso/cas/link');
    const [identity] = (await u.client.get('/api/user/identities')).json().data.identities;
    expect(
      (await u.client.request({ method: 'DELETE', url: `/api/user/identities/${identity.id}` })).json().data.identities,
    ).toEqual([]);
    expect((await u.client.request({ method: 'DELETE', url: `/api/user/identities/${identity.id}` })).statusCode).toBe(
      404,
    );

    // An SSO-only account: password login turned off by an administrator.
    await casReturn(u.client, fresh(), '/api/user/sso/cas/link');
    const list = (await u.client.get('/api/user/identities')).json().data.identities;
    const off = await admin.client.request({
      method: 'PUT',
      url: `/api/user/admin/users/${u.uid}/password-login`,
      payload: { enabled: false },
    });
    expect(off.json().data).toMatchObject({ passwordLogin: false, hasPassword: true });
    const refused = await u.client.request({ method: 'DELETE', url: `/api/user/identities/${list[0].id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorMessage).toContain('解除后将无法登录');
    await admin.client.post(`/api/user/admin/users/${u.uid}/identities`, { provider: 'oidc', subject: fresh() });
    expect((await u.client.request({ method: 'DELETE', url: `/api/user/identities/${list[0].id}` })).statusCode).toBe(
      200,
    );

    // Another user's identity is not theirs to unlink.
    const v = await loggedInClient(ctx);
    const theirs = (await u.client.get('/api/user/identities')).json().data.identities[0];
    expect((await v.client.request({ method: 'DELETE', url: `/api/user/identities/${theirs.id}` })).statusCode).toBe(
      404,
    );
  });
});

describe('an administrator turns the local password off for an SSO-only user', () => {
  test('refused without a linked identity; with one, the password stops working (the right one is told why); audited', async () => {
    const admin = await loggedInClient(ctx, ['admin']);
    const u = await loggedInClient(ctx, [], 'local-password-3');
    const refused = await admin.client.request({
      method: 'PUT',
      url: `/api/user/admin/users/${u.uid}/password-login`,
      payload: { enabled: false },
    });
    expect(refused.statusCode).toBe(409);
    await admin.client.post(`/api/user/admin/users/${u.uid}/identities`, { provider: 'cas', subject: fresh() });
    const off = await admin.client.request({
      method: 'PUT',
      url: `/api/user/admin/users/${u.uid}/password-login`,
      payload: { enabled: false },
    });
    expect(off.statusCode).toBe(200);
    const right = await new Client(ctx.app).post('/api/user/login', {
      username: u.username,
      password: 'local-password-3',
    });
    expect(right.statusCode).toBe(403);
    expect(right.json().errorMessage).toBe('该账号已停用密码登录，请使用统一身份认证登录');
    const wrong = await new Client(ctx.app).post('/api/user/login', {
      username: u.username,
      password: 'not-the-password',
    });
    expect(wrong.json().errorMessage).toBe('用户名或密码错误');
    const audit = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.password_login')
      .where('target_id', '=', String(u.uid))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ before: { passwordLogin: true }, after: { passwordLogin: false } });
    const bad = await admin.client.request({
      method: 'PUT',
      url: `/api/user/admin/users/${u.uid}/password-login`,
      payload: { enabled: 'no' },
    });
    expect(bad.statusCode).toBe(400);
    const view = (await admin.client.get(`/api/user/admin/users/${u.uid}/security`)).json().data;
    expect(view).toMatchObject({ passwordLogin: false, twoFactorEnabled: false, identities: [{ provider: 'cas' }] });
    expect((await admin.client.get('/api/user/admin/users/999999/security')).statusCode).toBe(404);
  });
});

describe('SSO_AUTO_CREATE with a local account of the same name', () => {
  test('never linked by the name: the choice is the password of that account, or a new account under a free name', async () => {
    const auto = await startTestApp({ CAS_URL: cas.url, PUBLIC_URL: PORTAL, SSO_AUTO_CREATE: 'true' });
    try {
      const owner = await loggedInClient(auto, [], 'local-password-4');
      const browser = new Client(auto.app);
      const res = await browser.get('/api/user/sso/cas/login');
      const service = new URL(res.headers.location as string).searchParams.get('service')!;
      const back = await browser.get(local(`${service}&ticket=${cas.issueTicket(owner.username, service)}`));
      expect(back.headers.location).toBe('/user/ssoBind');
      expect((await browser.get('/api/user/sso/pending')).json().data.canCreate).toBe(true);
      const created = await browser.post('/api/user/sso/pending/create');
      expect(created.statusCode).toBe(200);
      expect(created.json().data.username).toBe(`${owner.username}_2`);
      expect(created.json().data.uid).not.toBe(owner.uid);
      const row = await auto.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', created.json().data.uid)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toBe('!'); // no password anyone could know
    } finally {
      await auto.close();
    }
  });
});
