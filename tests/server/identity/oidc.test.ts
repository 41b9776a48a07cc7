/**
 * OIDC sign-in: authorization code with PKCE through openid-client, against a real
 * OpenID provider (the `oidc-provider` package in a child process, tests/fixtures/oidc-provider.mjs).
 * The portal is driven through inject (its public URL is http://portal.test, the redirect URI the
 * provider knows); the provider over real HTTP by a cookie-keeping client. Bad cases: a forged state, a
 * replayed code, the provider's refusal, a provider that is unreachable at the start or gone before
 * the code is exchanged. A sign-in into an account with two-factor sign-in asks for the code.
 */
import { CookieFetch, locationOf } from '../../fixtures/cookie-fetch';
import { startOidcProvider, type OidcFixture } from '../../fixtures/oidc';
import { Client, startTestApp, type TestContext } from '../helpers';
import { enrol, totp } from './helpers';

const PORTAL = 'http://portal.test';
const CLIENT = { client_id: 'portal', client_secret: 'portal-client-secret-0123456789abcdef' };
const REDIRECT_URI = `${PORTAL}/api/user/sso/oidc/callback`;
const ACCOUNTS = [
  {
    username: 'alice',
    password: 'idp-pass-1',
    claims: { name: '爱丽丝', email: 'alice@example.edu', email_verified: true, groups: ['staff'] },
  },
  { username: 'bob', password: 'idp-pass-2', claims: { name: '鲍勃', groups: ['students'] } },
  { username: 'carol', password: 'idp-pass-3', claims: { name: '卡罗尔' } },
];

let idp: OidcFixture;
let ctx: TestContext;

const envFor = (issuer: string) => ({
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: CLIENT.client_id,
  OIDC_CLIENT_SECRET: CLIENT.client_secret,
  OIDC_SCOPES: 'openid profile email groups',
  OIDC_BUTTON: '校园门户登录',
  PUBLIC_URL: PORTAL,
  SSO_AUTO_CREATE: 'true',
  SSO_ROLE_MAP: 'groups=staff:njit',
  SSO_TIMEOUT_MS: '2000',
});

beforeAll(async () => {
  idp = await startOidcProvider({ clients: [{ ...CLIENT, redirect_uris: [REDIRECT_URI] }], accounts: ACCOUNTS });
  ctx = await startTestApp(envFor(idp.issuer));
}, 30_000);
afterAll(async () => {
  await ctx?.close();
  await idp?.stop();
});

/** The portal's path and query of a URL on PORTAL. */
const local = (url: string) => {
  const u = new URL(url);
  expect(u.origin).toBe(PORTAL);
  return `${u.pathname}${u.search}`;
};

/** Starts at the portal, walks the provider (logging in when it asks), and returns the callback URL. */
async function authorize(
  client: Client,
  browser: CookieFetch,
  issuer: string,
  account: { username: string; password: string },
  redirect?: string,
): Promise<{ authUrl: URL; callback: string; stateCookie: string | undefined }> {
  const start = await client.get(
    `/api/user/sso/oidc/login${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`,
  );
  expect(start.statusCode).toBe(302);
  const authUrl = new URL(start.headers.location as string);
  const stateCookie = client.cookies.get('portal_sso_state');
  let res = await browser.fetch(authUrl.toString());
  for (let hop = 0; hop < 10; hop++) {
    if (res.status === 200) {
      const form = res.url;
      res = await browser.postForm(`${form}/login`, account);
      continue;
    }
    const next = locationOf(res, issuer);
    if (next.startsWith(PORTAL)) return { authUrl, callback: next, stateCookie };
    res = await browser.fetch(next);
  }
  throw new Error('the provider never sent the browser back');
}

async function signIn(account: (typeof ACCOUNTS)[number], redirect?: string) {
  const client = new Client(ctx.app);
  const { authUrl, callback, stateCookie } = await authorize(client, new CookieFetch(), idp.issuer, account, redirect);
  const done = await client.get(local(callback));
  return { client, authUrl, callback, done, stateCookie };
}

describe('signing in through OIDC', () => {
  test('authorization code with PKCE (S256), state and nonce; the first sign-in creates the account with the mapped role', async () => {
    const { client, authUrl, done, stateCookie } = await signIn(ACCOUNTS[0], '/UMS/self');
    const q = authUrl.searchParams;
    expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe('portal');
    expect(q.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get('scope')).toBe('openid profile email groups');
    // The state is bound to this browser: its cookie holds the same value (and is gone after the callback).
    expect(q.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stateCookie).toBe(q.get('state'));
    expect(client.cookies.get('portal_sso_state')).toBeUndefined();

    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/UMS/self');
    const me = (await client.get('/api/user/me')).json().data;
    expect(me).toMatchObject({ username: 'alice', nickname: '爱丽丝', roles: ['njit'] });
    const ids = (await client.get('/api/user/identities')).json().data.identities;
    expect(ids).toMatchObject([
      { provider: 'oidc', subject: 'alice', displayName: '爱丽丝', email: 'alice@example.edu' },
    ]);
    // The PKCE verifier was kept sealed and is gone with the state.
    expect(await ctx.db.selectFrom('sso_states').selectAll().where('provider', '=', 'oidc').execute()).toEqual([]);
  });

  test('the settings name the configured button', async () => {
    const res = await new Client(ctx.app).get('/api/user/settings');
    expect(res.json().data.sso).toEqual({
      cas: null,
      oidc: { label: '校园门户登录', loginUrl: '/api/user/sso/oidc/login' },
    });
  });

  test('a second sign-in reaches the same account', async () => {
    const first = await signIn(ACCOUNTS[1]);
    const uid = (await first.client.get('/api/user/me')).json().data.uid;
    const second = await signIn(ACCOUNTS[1]);
    expect((await second.client.get('/api/user/me')).json().data).toMatchObject({ uid, roles: [] });
  });

  test('an open redirect is refused the way the local login refuses it', async () => {
    const { done } = await signIn(ACCOUNTS[2], 'https://evil.example/');
    expect(done.headers.location).toBe('/home');
  });
});

describe('what must not sign anyone in', () => {
  test('a forged state: another value, another browser, none', async () => {
    const client = new Client(ctx.app);
    const { callback } = await authorize(client, new CookieFetch(), idp.issuer, ACCOUNTS[2]);
    const forged = callback.replace(/state=[^&]+/, `state=${'B'.repeat(43)}`);
    const a = await client.get(local(forged));
    expect(a.headers.location).toBe('/user/login?sso_error=state');
    const stranger = new Client(ctx.app);
    expect((await stranger.get(local(callback))).headers.location).toBe('/user/login?sso_error=state');
    expect((await client.get('/api/user/sso/oidc/callback?code=abc')).headers.location).toBe(
      '/user/login?sso_error=state',
    );
    expect((await client.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    expect((await stranger.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
  });

  test('an ID token with another nonce: refused, and the log line names neither nonce', async () => {
    const client = new Client(ctx.app);
    const { authUrl, callback } = await authorize(client, new CookieFetch(), idp.issuer, ACCOUNTS[2]);
    const sent = authUrl.searchParams.get('nonce')!;
    const expected = 'N'.repeat(43);
    const changed = await ctx.db
      .updateTable('sso_states')
      .set({ nonce: expected })
      .where('nonce', '=', sent)
      .executeTakeFirst();
    expect(Number(changed.numUpdatedRows)).toBe(1);
    const before = ctx.logs.length;
    const res = await client.get(local(callback));
    expect(res.headers.location).toBe('/user/login?sso_error=failed');
    expect((await client.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    const lines = ctx.logs.slice(before);
    const failure = lines.find((l) => l.includes('sso sign-in failed'));
    expect(failure).toMatch(/nonce mismatch/);
    expect(lines.filter((l) => l.includes(expected) || l.includes(sent))).toEqual([]);
  });

  test('a replayed code: refused by the provider (and PKCE), no session', async () => {
    const { client, callback } = await signIn(ACCOUNTS[2]);
    expect((await client.get('/api/user/me')).statusCode).toBe(200);
    // The same callback again: its state is used up.
    const same = new Client(ctx.app);
    expect((await same.get(local(callback))).headers.location).toBe('/user/login?sso_error=state');
    // The old code with a fresh state of a new sign-in.
    const replayer = new Client(ctx.app);
    const start = await replayer.get('/api/user/sso/oidc/login');
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const replayed = callback.replace(/state=[^&]+/, `state=${state}`);
    const res = await replayer.get(local(replayed));
    expect(res.headers.location).toBe('/user/login?sso_error=ticket');
    expect((await replayer.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
  });

  test("the provider's refusal (access_denied) is a clear message", async () => {
    const client = new Client(ctx.app);
    const start = await client.get('/api/user/sso/oidc/login?redirect=%2FOCS');
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const res = await client.get(`/api/user/sso/oidc/callback?error=access_denied&state=${state}`);
    expect(res.headers.location).toBe('/user/login?sso_error=denied&redirect=%2FOCS');
    expect((await client.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
  });

  test('an unreachable provider at the start, and one gone before the code is exchanged', async () => {
    const down = await startTestApp(envFor('http://127.0.0.1:9'));
    try {
      const res = await new Client(down.app).get('/api/user/sso/oidc/login?redirect=%2FOCS');
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/user/login?sso_error=unreachable&redirect=%2FOCS');
    } finally {
      await down.close();
    }

    const brief = await startOidcProvider({
      clients: [{ ...CLIENT, redirect_uris: [REDIRECT_URI] }],
      accounts: ACCOUNTS,
    });
    const app = await startTestApp(envFor(brief.issuer));
    try {
      const client = new Client(app.app);
      const { callback } = await authorize(client, new CookieFetch(), brief.issuer, ACCOUNTS[1]);
      await brief.stop();
      const res = await client.get(local(callback));
      expect(res.headers.location).toBe('/user/login?sso_error=unreachable');
      expect((await client.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    } finally {
      await app.close();
      await brief.stop();
    }
  }, 30_000);
});

describe('with two-factor sign-in', () => {
  test('an OIDC sign-in asks for the code before the session, like a password', async () => {
    const first = await signIn(ACCOUNTS[1]);
    const { secret } = await enrol(first.client);
    const client = new Client(ctx.app);
    const { callback } = await authorize(client, new CookieFetch(), idp.issuer, ACCOUNTS[1], '/OCS/bill');
    const done = await client.get(local(callback));
    expect(done.headers.location).toBe('/user/login?step=2fa&redirect=%2FOCS%2Fbill');
    expect(client.cookies.get('portal_sid')).toBeUndefined();
    expect((await client.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    const verified = await client.post('/api/user/login/verify', { code: totp(secret, 1) });
    expect(verified.statusCode).toBe(200);
    const session = await ctx.db
      .selectFrom('sessions')
      .select('sso_provider')
      .where('user_id', '=', verified.json().data.uid)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.sso_provider).toBe('oidc');
  });
});
