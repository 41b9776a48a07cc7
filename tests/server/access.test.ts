/**
 * Every /api route declares who may call it. This walks the live route table, so a route added later
 * is covered without touching this file: anonymous callers are refused everywhere but public routes,
 * and role routes refuse a logged-in user without the role.
 */
import { loggedInClient, startTestApp, type TestContext } from './helpers';

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
    'GET /api/user/settings',
    'POST /api/user/login',
    'POST /api/user/register',
  ]);
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
    const res = await client.request({
      method: r.method as 'GET',
      url: concreteUrl(r.url),
      ...(r.method === 'GET' || r.method === 'DELETE' ? {} : { payload: {} }),
    });
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
