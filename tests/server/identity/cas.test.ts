/**
 * CAS sign-in against a CAS server written from the protocol specification
 * (tests/fixtures/fake-cas.ts), over real HTTP: the portal listens on loopback, and a cookie-keeping
 * client plays the browser on both. The bad cases of the issue: a replayed ticket, a ticket for another
 * service, an expired one, a forged state, an unreachable or hanging CAS server — each a clear
 * `sso_error` and no session. Also: CAS 2.0 and 3.0 validation, attributes mapped to roles, the
 * `redirect` rule of the local login, and single logout.
 */
import { sql } from 'kysely';
import { CookieFetch, locationOf } from '../../fixtures/cookie-fetch';
import { FakeCas, logoutRequestXml } from '../../fixtures/fake-cas';
import { loggedInClient, startTestApp, type TestContext } from '../helpers';

let cas: FakeCas;
let ctx: TestContext;
let portal: string;

async function listening(env: Record<string, string>): Promise<{ ctx: TestContext; url: string }> {
  const c = await startTestApp(env);
  const address = await c.app.listen({ port: 0, host: '127.0.0.1' });
  return { ctx: c, url: address };
}

beforeAll(async () => {
  cas = await new FakeCas().start();
  cas.account('zhangsan', 'cas-pass-1', { type: 'staff', cn: '张三', mail: 'zhangsan@example.edu' });
  cas.account('lisi', 'cas-pass-2', { type: 'student', cn: '李四', memberOf: ['a', 'portal-admins'] });
  cas.account('wangwu', 'cas-pass-3', { type: 'student' });
  ({ ctx, url: portal } = await listening({
    CAS_URL: cas.url,
    SSO_AUTO_CREATE: 'true',
    SSO_ROLE_MAP: 'type=staff:njit; memberOf=portal-admins:admin',
    SSO_TIMEOUT_MS: '800',
  }));
});
afterAll(async () => {
  await ctx?.close();
  await cas?.stop();
});

/** Starts a CAS sign-in at the portal: returns the CAS login URL and the service URL the portal sent. */
async function start(browser: CookieFetch, redirect?: string): Promise<{ login: string; service: string }> {
  const res = await browser.fetch(
    `${portal}/api/user/sso/cas/login${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`,
  );
  const login = locationOf(res, portal);
  return { login, service: new URL(login).searchParams.get('service')! };
}

/** The whole round trip through the CAS login form; returns where the portal finally sends the browser. */
async function signIn(browser: CookieFetch, username: string, password: string, redirect?: string): Promise<URL> {
  const { login, service } = await start(browser, redirect);
  let res = await browser.fetch(login);
  if (res.status === 200) {
    expect(await res.text()).toContain('统一身份认证');
    res = await browser.postForm(`${cas.url}/login`, { username, password, service });
  }
  const callback = locationOf(res, cas.url);
  expect(callback.startsWith(`${service}&ticket=ST-`)).toBe(true);
  return new URL(locationOf(await browser.fetch(callback), portal));
}

const me = (browser: CookieFetch) => browser.fetch(`${portal}/api/user/me`);
const hasSession = (browser: CookieFetch) => browser.jar(portal).has('portal_sid');

describe('signing in through CAS', () => {
  test('the service URL carries a state bound to this browser; the login form, a ticket, a session', async () => {
    const browser = new CookieFetch();
    const { login, service } = await start(browser, '/OCS/bill?page=2');
    expect(login.startsWith(`${cas.url}/login?service=`)).toBe(true);
    expect(service).toMatch(new RegExp(`^${portal}/api/user/sso/cas/callback\\?state=[A-Za-z0-9_-]{43}$`));
    expect(browser.jar(portal).get('portal_sso_state')).toBe(new URL(service).searchParams.get('state'));

    const landed = await signIn(new CookieFetch(), 'zhangsan', 'cas-pass-1', '/OCS/bill?page=2');
    expect(`${landed.pathname}${landed.search}`).toBe('/OCS/bill?page=2');
  });

  test('the first sign-in creates the account (SSO_AUTO_CREATE) with the mapped role; CAS 3.0 attributes are read', async () => {
    const browser = new CookieFetch();
    const landed = await signIn(browser, 'zhangsan', 'cas-pass-1');
    expect(landed.pathname).toBe('/home');
    const user = (await (await me(browser)).json()).data;
    expect(user).toMatchObject({ username: 'zhangsan', nickname: '张三', roles: ['njit'] });
    expect(cas.validations.at(-1)).toMatchObject({ path: '/cas/p3/serviceValidate', outcome: 'SUCCESS' });

    const identities = (await (await browser.fetch(`${portal}/api/user/identities`)).json()).data;
    expect(identities).toMatchObject({
      passwordLogin: false,
      identities: [{ provider: 'cas', subject: 'zhangsan', displayName: '张三', email: 'zhangsan@example.edu' }],
    });
    const created = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.create')
      .where('target_name', '=', 'zhangsan')
      .executeTakeFirstOrThrow();
    expect(created.after).toMatchObject({ roles: ['njit'], sso: 'cas' });
    const session = await ctx.db
      .selectFrom('sessions')
      .select(['sso_provider', 'sso_session_hash'])
      .where('user_id', '=', user.uid)
      .executeTakeFirstOrThrow();
    expect(session.sso_provider).toBe('cas');
    expect(session.sso_session_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a second sign-in with the CAS session needs no form and reaches the same account; roles from attributes are added', async () => {
    const browser = new CookieFetch();
    await signIn(browser, 'lisi', 'cas-pass-2');
    const first = (await (await me(browser)).json()).data;
    expect(first.roles).toEqual(['admin']);
    await browser.fetch(`${portal}/api/user/logout`, {
      method: 'POST',
      headers: { origin: portal, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(hasSession(browser)).toBe(false);
    // Meanwhile the campus made lisi staff: the next sign-in adds njit (never removes a role).
    cas.account('lisi', 'cas-pass-2', { type: 'staff', cn: '李四', memberOf: ['a', 'portal-admins'] });

    const { login } = await start(browser);
    const direct = await browser.fetch(login);
    expect(direct.status).toBe(303); // the CAS session cookie: a ticket at once
    const landed = new URL(locationOf(await browser.fetch(locationOf(direct, cas.url)), portal));
    expect(landed.pathname).toBe('/home');
    const again = (await (await me(browser)).json()).data;
    expect(again).toMatchObject({ uid: first.uid, roles: ['admin', 'njit'] });
    const granted = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.sso_roles')
      .where('target_name', '=', 'lisi')
      .executeTakeFirstOrThrow();
    expect(granted).toMatchObject({ before: { roles: ['admin'] }, after: { roles: ['admin', 'njit'] } });
  });

  test('redirect follows the local login rule: only same-origin paths', async () => {
    for (const bad of [
      '//evil.example/steal',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/user/login',
    ]) {
      const landed = await signIn(new CookieFetch(), 'wangwu', 'cas-pass-3', bad);
      expect({ bad, landed: `${landed.origin}${landed.pathname}` }).toEqual({ bad, landed: `${portal}/home` });
    }
  });

  test('CAS 2.0: /serviceValidate, without attributes', async () => {
    const { ctx: v2, url } = await listening({
      CAS_URL: cas.url,
      CAS_VERSION: '2',
      SSO_AUTO_CREATE: 'true',
      SSO_ROLE_MAP: 'type=staff:njit',
    });
    try {
      const browser = new CookieFetch();
      const res = await browser.fetch(`${url}/api/user/sso/cas/login`);
      const service = new URL(locationOf(res, url)).searchParams.get('service')!;
      const ticket = cas.issueTicket('zhangsan', service);
      const landed = await browser.fetch(`${service}&ticket=${ticket}`);
      expect(new URL(locationOf(landed, url)).pathname).toBe('/home');
      expect(cas.validations.at(-1)).toMatchObject({ path: '/cas/serviceValidate', outcome: 'SUCCESS' });
      const user = (await (await browser.fetch(`${url}/api/user/me`)).json()).data;
      expect(user).toMatchObject({ username: 'zhangsan', roles: [] }); // no attributes, no mapped role
    } finally {
      await v2.close();
    }
  });
});

describe('usernames in another case', () => {
  /** A sign-in with a ticket CAS issued for `username` (as typed at CAS); the account it reaches. */
  async function ticketSignIn(url: string, username: string) {
    const browser = new CookieFetch();
    const service = new URL(locationOf(await browser.fetch(`${url}/api/user/sso/cas/login`), url)).searchParams.get(
      'service',
    )!;
    const landed = new URL(
      locationOf(await browser.fetch(`${service}&ticket=${cas.issueTicket(username, service)}`), url),
    );
    const me = await browser.fetch(`${url}/api/user/me`);
    return { landed: landed.pathname, user: me.status === 200 ? ((await me.json()).data ?? null) : null };
  }

  test('JDOE after jdoe is the same person: one account, one identity', async () => {
    const first = await ticketSignIn(portal, 'jdoe');
    expect(first.user).toMatchObject({ username: 'jdoe' });
    const again = await ticketSignIn(portal, 'JDOE');
    expect(again).toMatchObject({ landed: '/home', user: { uid: first.user.uid, username: 'jdoe' } });
    expect((await ticketSignIn(portal, 'JDoe')).user.uid).toBe(first.user.uid);
    const rows = await ctx.db
      .selectFrom('user_identities')
      .select(['user_id', 'subject'])
      .where(sql<boolean>`lower(subject) = 'jdoe'`)
      .execute();
    expect(rows).toEqual([{ user_id: first.user.uid, subject: 'jdoe' }]);
    const users = await ctx.db.selectFrom('users').select('username').where('username', 'ilike', 'jdoe%').execute();
    expect(users).toEqual([{ username: 'jdoe' }]);
  });

  test('an administrator cannot link JDOE to another account while jdoe is linked', async () => {
    const owner = await ticketSignIn(portal, 'mlee');
    const admin = await loggedInClient(ctx, ['admin']);
    const other = await loggedInClient(ctx);
    const res = await admin.client.post(`/api/user/admin/users/${other.uid}/identities`, {
      provider: 'cas',
      subject: 'MLEE',
    });
    expect(res.statusCode).toBe(409);
    expect((await ticketSignIn(portal, 'MLee')).user.uid).toBe(owner.user.uid);
  });

  test('with CAS_CASE_SENSITIVE=true, a CAS that tells case apart keeps them two people', async () => {
    const { ctx: strict, url } = await listening({
      CAS_URL: cas.url,
      SSO_AUTO_CREATE: 'true',
      CAS_CASE_SENSITIVE: 'true',
    });
    try {
      const lower = await ticketSignIn(url, 'kchan');
      expect(lower.user).toMatchObject({ username: 'kchan' });
      // KCHAN is someone else: the name is taken (by any case), so that person waits to link or create.
      const upper = await ticketSignIn(url, 'KCHAN');
      expect(upper.landed).toBe('/user/ssoBind');
      expect(upper.user).toBeNull();
    } finally {
      await strict.close();
    }
  });
});

describe('what must not sign anyone in', () => {
  /** A fresh browser that started a sign-in: its state and the service URL the CAS server would return to. */
  async function started() {
    const browser = new CookieFetch();
    const { service } = await start(browser);
    return { browser, service };
  }

  const landing = async (browser: CookieFetch, url: string) => new URL(locationOf(await browser.fetch(url), portal));

  test('a replayed ticket', async () => {
    const a = await started();
    const ticket = cas.issueTicket('wangwu', a.service);
    expect((await landing(a.browser, `${a.service}&ticket=${ticket}`)).pathname).toBe('/home');
    // The same callback again: the state was used up.
    const again = await landing(a.browser, `${a.service}&ticket=${ticket}`);
    expect(again.searchParams.get('sso_error')).toBe('state');
    // A new sign-in with the old ticket: CAS refuses it (a ticket is good for one validation).
    const b = await started();
    const replay = await landing(b.browser, `${b.service}&ticket=${ticket}`);
    expect(`${replay.pathname}?${replay.searchParams}`).toBe('/user/login?sso_error=ticket');
    expect(cas.validations.at(-1)?.outcome).toBe('INVALID_TICKET');
    expect(hasSession(b.browser)).toBe(false);
  });

  test('a ticket issued for another service', async () => {
    const b = await started();
    const ticket = cas.issueTicket('wangwu', 'https://other-portal.example/cas/callback');
    const res = await landing(b.browser, `${b.service}&ticket=${ticket}`);
    expect(res.searchParams.get('sso_error')).toBe('ticket');
    expect(cas.validations.at(-1)?.outcome).toBe('INVALID_SERVICE');
    expect(hasSession(b.browser)).toBe(false);
  });

  test('an expired ticket', async () => {
    const b = await started();
    const ticket = cas.issueTicket('wangwu', b.service);
    cas.now = () => Date.now() + cas.ticketTtlMs + 1000;
    try {
      const res = await landing(b.browser, `${b.service}&ticket=${ticket}`);
      expect(res.searchParams.get('sso_error')).toBe('ticket');
    } finally {
      cas.now = () => Date.now();
    }
    expect(hasSession(b.browser)).toBe(false);
  });

  test('a forged or foreign state', async () => {
    const victim = await started();
    const ticket = cas.issueTicket('wangwu', victim.service);
    // Another browser (no state cookie) presenting the victim's callback URL.
    const attacker = new CookieFetch();
    const stolen = await landing(attacker, `${victim.service}&ticket=${ticket}`);
    expect(stolen.searchParams.get('sso_error')).toBe('state');
    expect(hasSession(attacker)).toBe(false);
    // Its own cookie but a made-up state in the URL.
    const own = await started();
    const forged = own.service.replace(/state=[^&]+/, `state=${'A'.repeat(43)}`);
    expect(
      (await landing(own.browser, `${forged}&ticket=${cas.issueTicket('wangwu', forged)}`)).searchParams.get(
        'sso_error',
      ),
    ).toBe('state');
    // No state at all.
    expect(
      (await landing(own.browser, `${portal}/api/user/sso/cas/callback?ticket=ST-1`)).searchParams.get('sso_error'),
    ).toBe('state');
    // A state that expired in the database.
    const late = await started();
    await ctx.db
      .updateTable('sso_states')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .execute();
    const expired = await landing(late.browser, `${late.service}&ticket=${cas.issueTicket('wangwu', late.service)}`);
    expect(expired.searchParams.get('sso_error')).toBe('state');
    expect(hasSession(late.browser)).toBe(false);
  });

  test('a callback without a ticket', async () => {
    const b = await started();
    expect((await landing(b.browser, b.service)).searchParams.get('sso_error')).toBe('ticket');
  });

  test('a failed sign-in that was headed for the security page is told on the login page, keeping the way there', async () => {
    const browser = new CookieFetch();
    const { service } = await start(browser, '/user/security');
    const res = await landing(browser, `${service}&ticket=ST-unknown`);
    expect(`${res.pathname}${res.search}`).toBe('/user/login?sso_error=ticket&redirect=%2Fuser%2Fsecurity');
  });

  test('an unreachable CAS server, and one that never answers: a clear message, no session', async () => {
    const gone = await new FakeCas().start();
    const goneUrl = gone.url;
    await gone.stop();
    const { ctx: down, url } = await listening({ CAS_URL: goneUrl, SSO_AUTO_CREATE: 'true', SSO_TIMEOUT_MS: '800' });
    try {
      const browser = new CookieFetch();
      const service = new URL(
        locationOf(await browser.fetch(`${url}/api/user/sso/cas/login?redirect=/OCS`), url),
      ).searchParams.get('service')!;
      const res = new URL(locationOf(await browser.fetch(`${service}&ticket=ST-whatever`), url));
      expect(`${res.pathname}?${res.searchParams}`).toBe('/user/login?sso_error=unreachable&redirect=%2FOCS');
      expect(browser.jar(url).has('portal_sid')).toBe(false);
    } finally {
      await down.close();
    }

    cas.stallValidation = true;
    try {
      const b = await started();
      const t0 = Date.now();
      const res = await landing(b.browser, `${b.service}&ticket=${cas.issueTicket('wangwu', b.service)}`);
      expect(res.searchParams.get('sso_error')).toBe('unreachable');
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(hasSession(b.browser)).toBe(false);
    } finally {
      cas.stallValidation = false;
    }
  });
});

describe('secrets stay out of the log', () => {
  test('neither the service ticket nor the state of a sign-in reaches a log line', async () => {
    const browser = new CookieFetch();
    const { service } = await start(browser);
    const state = new URL(service).searchParams.get('state')!;
    const ticket = cas.issueTicket('wangwu', service);
    await browser.fetch(`${service}&ticket=${ticket}`);
    expect((await me(browser)).status).toBe(200);
    const logs = ctx.logs.join('\n');
    expect(logs).toContain('/api/user/sso/cas/callback?state=[REDACTED]&ticket=[REDACTED]');
    expect(logs).not.toContain(ticket);
    expect(logs).not.toContain(state);
  });
});

describe('single logout', () => {
  test('logging out at CAS ends the portal session that CAS sign-in opened, and only that one', async () => {
    const browser = new CookieFetch();
    await signIn(browser, 'wangwu', 'cas-pass-3');
    expect((await me(browser)).status).toBe(200);
    const other = new CookieFetch();
    await signIn(other, 'wangwu', 'cas-pass-3');

    // The CAS logout page, with this browser's CAS session: a back-channel request to the portal.
    const out = await browser.fetch(`${cas.url}/logout`);
    expect(out.status).toBe(200);
    expect(cas.logouts.at(-1)).toMatchObject({ status: 200 });
    expect((await me(browser)).status).toBe(401);
    expect((await me(other)).status).toBe(200);
  });

  test('a logout request for an unknown ticket, or nonsense, ends nothing and answers 200', async () => {
    const browser = new CookieFetch();
    await signIn(browser, 'wangwu', 'cas-pass-3');
    for (const body of [
      new URLSearchParams({ logoutRequest: logoutRequestXml('ST-unknown') }).toString(),
      new URLSearchParams({ logoutRequest: '<not xml' }).toString(),
      '',
    ]) {
      const res = await fetch(`${portal}/api/user/sso/cas/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status).toBe(200);
    }
    expect((await me(browser)).status).toBe(200);
  });
});

describe('without CAS configured', () => {
  test('the button is absent and the start URL says so', async () => {
    const { ctx: bare, url } = await listening({});
    try {
      const settings = await (await fetch(`${url}/api/user/settings`)).json();
      expect(settings.data.sso).toEqual({ cas: null, oidc: null });
      const res = await fetch(`${url}/api/user/sso/cas/login`, { redirect: 'manual' });
      expect(res.headers.get('location')).toBe('/user/login?sso_error=not_configured');
    } finally {
      await bare.close();
    }
  });
});
