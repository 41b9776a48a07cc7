import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { precompress } from '../../scripts/precompress.mjs';
import { openTestDatabase, startTestApp, type TestContext, type TestDatabase } from './helpers';

let database: TestDatabase;
let ctx: TestContext;
let uiDir: string;
beforeAll(async () => {
  uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ui-'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>门户</title><div id="root"></div>');
  fs.writeFileSync(path.join(uiDir, 'umi.1a2b3c4d.js'), 'console.log(1)');
  // A bundle large enough to be precompressed, as `npm run build` does.
  fs.writeFileSync(
    path.join(uiDir, 'p__home.9f8e7d6c.async.js'),
    `console.log(${JSON.stringify('首页'.repeat(2000))});`,
  );
  precompress(uiDir);
  database = await openTestDatabase();
  ctx = await startTestApp({ UI_DIR: uiDir }, database);
});
afterAll(async () => {
  await ctx.close();
  await database.close();
  fs.rmSync(uiDir, { recursive: true, force: true });
});

test('/api/health reports the database', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ success: true, data: { status: 'ok', database: 'ok' } });
});

test('an unknown /api route is a JSON 404 envelope', async () => {
  for (const url of ['/api/nope', '/api/user/nope?x=1', '/api']) {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ success: false, errorCode: 'NOT_FOUND' });
  }
  const post = await ctx.app.inject({ method: 'POST', url: '/api/nope', payload: {} });
  expect(post.statusCode).toBe(404);
});

test('every other path falls back to the SPA index.html', async () => {
  for (const url of ['/', '/home', '/user/login?redirect=%2FOCS', '/OCS/overview', '/no/such/page']) {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect(res.headers['cache-control']).toBe('no-cache');
  }
});

test('hashed bundles are served with a long cache', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/umi.1a2b3c4d.js' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toMatch(/immutable/);
});

test('security headers are set', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/home' });
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
});

test('OpenAPI is served at /api/docs', async () => {
  const json = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(json.statusCode).toBe(200);
  const spec = json.json();
  expect(spec.openapi).toMatch(/^3\./);
  expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/user/login', '/api/user/me']));
  const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
  expect(ui.statusCode).toBe(200);
  expect(ui.body).toMatch(/swagger/i);
});

describe('compression', () => {
  const bundle = '/p__home.9f8e7d6c.async.js';
  const original = () => fs.readFileSync(path.join(uiDir, bundle));

  test('a precompressed bundle goes out as brotli or gzip as the browser accepts, identical once decoded', async () => {
    const br = await ctx.app.inject({
      method: 'GET',
      url: bundle,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toMatch(/immutable/);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(original())).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(original().length / 4);

    const gz = await ctx.app.inject({ method: 'GET', url: bundle, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).equals(original())).toBe(true);

    const plain = await ctx.app.inject({ method: 'GET', url: bundle, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original())).toBe(true);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
  });

  test('large JSON answers are compressed, small ones are not', async () => {
    const big = await ctx.app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(big.rawPayload).toString()).openapi).toMatch(/^3\./);
    const small = await ctx.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().success).toBe(true);
  });
});
