/**
 * The contract's endpoint descriptors and the live server agree: every descriptor is served with the
 * access it declares, and the server serves no /api route that is not a descriptor (no hand-made paths).
 */
import { allEndpoints } from '../../src/contract/api';
import { keyOf } from '../../src/contract/endpoint';
import { startTestApp, type TestContext } from './helpers';

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
