/**
 * Every /api route declares who may call it. This walks the live route table, so a route added later
 * is covered without touching this file: anonymous callers are refused everywhere but public routes,
 * and role routes refuse a logged-in user without the role.
 */
import { loggedInClient, startTestApp, type Client, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

function concreteUrl(url: string): string {
  return url.replace(/:(\w+)/g, '1').replace(/\*$/, 'x');
}

/** A route called with placeholder ids and, for writes, an empty JSON body. */
function requestRoute(client: Client, r: { method: string; url: string }) {
  return client.request({
    method: r.method as 'GET',
    url: concreteUrl(r.url),
    ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
  });
}

test('every /api route declares an access level', () => {
  expect(ctx.app.routeAccess.length).toBeGreaterThan(0);
  for (const r of ctx.app.routeAccess) {
    expect(['public', 'user', 'admin', 'njit', 'token', 'ocs-token']).toContain(r.auth);
  }
});

test('the public routes are exactly the ones meant to be public', () => {
  const pub = ctx.app.routeAccess
    .filter((r) => r.auth === 'public' && !r.url.startsWith('/api/docs'))
    .map((r) => `${r.method} ${r.url}`)
    .sort();
  expect(pub).toEqual([
    'GET /api/health',
    'GET /api/health/live',
    'GET /api/health/ready',
    'GET /api/ocs/userscript.user.js',
    'GET /api/user/avatar/:id',
    // who is signed in: nobody is an answer (200, success:false), an ended session a 401 (user/auth.test.ts)
    'GET /api/user/me',
    'GET /api/user/settings',
    // institutional sign-in: the SSO round trip, the second step, mailed links (their secret is the credential)
    'GET /api/user/sso/:provider/login',
    'GET /api/user/sso/cas/callback',
    'GET /api/user/sso/oidc/callback',
    'GET /api/user/sso/pending',
    // the link of an e-mail channel's confirmation mail: the address's owner may have no account
    'POST /api/ums/email/confirm',
    'POST /api/user/email/verify',
    'POST /api/user/login',
    'POST /api/user/login/link',
    'POST /api/user/login/verify',
    'POST /api/user/password/forgot',
    'POST /api/user/password/reset',
    'POST /api/user/password/reset/check',
    'POST /api/user/register',
    'POST /api/user/sso/cas/callback',
    'POST /api/user/sso/pending/create',
    'POST /api/user/sso/pending/link',
  ]);
});

test('outside /api only the drop-in compatible send endpoints are served, each a token route with ums:send', async () => {
  const outside = ctx.app.routeAccess.filter((r) => !r.url.startsWith('/api'));
  expect(outside.map((r) => `${r.method} ${r.url} ${r.auth}`).sort()).toEqual([
    'GET /:sendkey.send token',
    'GET /send token',
    'GET /send/:token token',
    'POST /:sendkey.send token',
    'POST /send token',
    'POST /send/:token token',
  ]);
  const { client } = await loggedInClient(ctx, []);
  const ocsOnly = (
    await client.post('/api/user/tokens', { name: 'ocs', scopes: ['ocs:query'], expiresInDays: null })
  ).json().data.token as string;
  for (const r of outside) {
    const url = r.url.replace(':sendkey', ocsOnly).replace(':token', ocsOnly);
    const payload = r.method === 'POST' ? { token: ocsOnly, title: 'x', content: 'x' } : undefined;
    // A session is not enough, and a token without ums:send is refused.
    const asUser = await client.request({
      method: r.method as 'GET',
      url: r.url.includes(':') ? url : `${url}?token=${ocsOnly}&title=x&content=x`,
      ...(payload ? { payload } : {}),
    });
    expect({ route: `${r.method} ${r.url}`, status: asUser.statusCode }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 403,
    });
  }
});

test('every non-public route refuses an anonymous caller with 401', async () => {
  const guarded = ctx.app.routeAccess.filter(
    (r) => r.auth !== 'public' && r.auth !== 'token' && r.auth !== 'ocs-token',
  );
  expect(guarded.length).toBeGreaterThan(0);
  for (const r of guarded) {
    const res = await ctx.app.inject({
      method: r.method as 'GET',
      url: concreteUrl(r.url),
      ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
    });
    expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 401,
    });
    expect(res.json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
  }
});

test('every token route refuses a caller without a token with 401', async () => {
  const tokenRoutes = ctx.app.routeAccess.filter((r) => r.auth === 'token');
  expect(tokenRoutes.length).toBeGreaterThan(0);
  for (const r of tokenRoutes) {
    const res = await ctx.app.inject({ method: r.method as 'GET', url: concreteUrl(r.url) });
    expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 401,
    });
  }
});

test("OCS-script routes refuse a caller without a token in the script's shape (HTTP 200, code 0)", async () => {
  const ocsRoutes = ctx.app.routeAccess.filter((r) => r.auth === 'ocs-token' && r.method !== 'OPTIONS');
  expect(ocsRoutes.length).toBeGreaterThan(0);
  for (const r of ocsRoutes) {
    const res = await ctx.app.inject({ method: r.method as 'GET', url: `${concreteUrl(r.url)}?title=x` });
    expect({ route: `${r.method} ${r.url}`, status: res.statusCode, code: res.json().code }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 200,
      code: 0,
    });
  }
});

test('role routes refuse a logged-in user without the role with 403', async () => {
  const { client } = await loggedInClient(ctx, []);
  for (const r of ctx.app.routeAccess.filter((x) => x.auth === 'admin' || x.auth === 'njit')) {
    const res = await requestRoute(client, r);
    expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 403,
    });
  }
});

test('a bogus or oversized session cookie is treated as anonymous', async () => {
  for (const cookie of ['portal_sid=abc', `portal_sid=${'x'.repeat(5000)}`, "portal_sid=' or 1=1 --"]) {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: { cookie } });
    expect(res.statusCode).toBe(401);
  }
});

test('administrators-only routes refuse a caller with any NJIT role but not admin with 403', async () => {
  for (const role of ['njit', 'njit_counselor', 'njit_teacher'] as const) {
    const { client } = await loggedInClient(ctx, [role]);
    for (const r of ctx.app.routeAccess.filter((x) => x.auth === 'admin')) {
      const res = await requestRoute(client, r);
      expect({ role, route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        role,
        route: `${r.method} ${r.url}`,
        status: 403,
      });
    }
  }
});

test('NJIT routes let a counselor or teacher in and refuse an administrator without an NJIT role', async () => {
  const { client: adminOnly } = await loggedInClient(ctx, ['admin']);
  const njitRoutes = ctx.app.routeAccess.filter((x) => x.auth === 'njit');
  for (const r of njitRoutes) {
    const res = await requestRoute(adminOnly, r);
    expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 403,
    });
  }
  for (const role of ['njit_counselor', 'njit_teacher'] as const) {
    const { client } = await loggedInClient(ctx, [role]);
    const res = await client.get('/api/njit/options');
    expect({ role, status: res.statusCode }).toEqual({ role, status: 200 });
  }
});
