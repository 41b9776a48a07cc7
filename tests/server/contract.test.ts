/**
 * The contract's endpoint descriptors and the live server agree: every descriptor is served with the
 * access it declares, and the server serves no /api route that is not a descriptor (no hand-made paths).
 */
import { allEndpoints } from '../../src/contract/api';
import { keyOf, pathOf } from '../../src/contract/endpoint';
import { loggedInClient, startTestApp, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const served = () =>
  new Map<string, string>(
    ctx.app.routeAccess
      .filter((r) => !r.url.startsWith('/api/docs'))
      .map((r) => [`${r.method} ${r.url.replace(/(.)\/$/, '$1')}`, r.auth] as const),
  );

test('every descriptor is served, with the access it declares', () => {
  const routes = served();
  const wrong = allEndpoints()
    .filter(([, e]) => routes.get(keyOf(e)) !== e.access)
    .map(([name, e]) => `${name}: ${keyOf(e)} declared ${e.access}, served ${routes.get(keyOf(e)) ?? 'not at all'}`);
  expect(wrong).toEqual([]);
});

test('every /api route the server answers is a descriptor', () => {
  const declared = new Set(allEndpoints().map(([, e]) => keyOf(e)));
  expect([...served().keys()].filter((k) => !declared.has(k))).toEqual([]);
});

test('descriptor paths are unique', () => {
  const keys = allEndpoints().map(([, e]) => keyOf(e));
  expect(keys.length).toBe(new Set(keys).size);
});

test('every descriptor answers the same with a trailing slash as without (never the router 404)', async () => {
  const differ: string[] = [];
  for (const [name, e] of allEndpoints()) {
    const path = pathOf(e, Object.fromEntries([...e.path.matchAll(/:(\w+)/g)].map((m) => [m[1], '1'])));
    const ask = (url: string) =>
      ctx.app.inject({
        method: e.method as 'GET',
        url,
        ...(e.method === 'GET' || e.method === 'DELETE' ? {} : { payload: {} }),
      });
    const [plain, slashed] = [await ask(path), await ask(`${path}/`)];
    const notRouted = slashed.statusCode === 404 && /接口不存在/.test(slashed.body);
    if (notRouted || plain.statusCode !== slashed.statusCode) {
      differ.push(`${name}: ${path} ${plain.statusCode}, ${path}/ ${slashed.statusCode}`);
    }
  }
  expect(differ).toEqual([]);
});

test('a logged-in script creates and lists tokens at /api/user/tokens/', async () => {
  const { client } = await loggedInClient(ctx);
  const created = await client.post('/api/user/tokens/', { name: 'slash', scopes: ['ocs:query'], expiresInDays: null });
  expect(created.statusCode).toBe(200);
  expect(created.json().data.token).toEqual(expect.any(String));
  const listed = await client.get('/api/user/tokens/');
  expect(listed.json().data.map((t: { name: string }) => t.name)).toContain('slash');
});
