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
  // The login page's first look (scripts/prerender-login.tsx), as `npm run build` writes it.
  fs.writeFileSync(
    path.join(uiDir, 'login.html'),
    '<!doctype html><title>门户</title><div id="prerendered"><form id="login"></form></div><div id="root"></div>',
  );
  fs.writeFileSync(path.join(uiDir, 'umi.1a2b3c4d.js'), 'console.log(1)');
  fs.writeFileSync(path.join(uiDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
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
  const paths = ['/', '/home', '/OCS/overview', '/no/such/page', '/user/login/', '/user/loginx', '/user/register'];
  // The login page on another step than its form, and login.html asked for by name.
  paths.push('/user/login?step=2fa', '/user/login?sso_error=state&redirect=%2FOCS', '/login.html', '/login.html?x=1');
  paths.push('/user/login?step=%00', '/user/login?sso_error=%ED%A0%80');
  for (const url of paths) {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
    expect({ url, prerendered: res.body.includes('prerendered') }).toEqual({ url, prerendered: false });
    expect(res.headers['cache-control']).toBe('no-cache');
  }
});

test('/user/login is sent with its form prerendered, as a document like index.html', async () => {
  // Ugly queries too (a NUL byte, a lone surrogate, a broken escape): only `step` and `sso_error` matter.
  const ugly = ['/user/login?redirect=%00%ED%A0%80', '/user/login?%zz=%E0%A4%A&redirect=%2F', "/user/login?x=1'--"];
  for (const url of ['/user/login', '/user/login?redirect=%2FOCS', '/user/login?redirect=%2F&x=step', ...ugly]) {
    const res = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    const body =
      res.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(res.rawPayload).toString() : res.body;
    expect(body).toContain('<div id="prerendered"><form id="login">');
  }
});

test('hashed bundles are served with a long cache', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/umi.1a2b3c4d.js' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toMatch(/immutable/);
});

test('other static files are reused for an hour; index.html itself is never reused unasked', async () => {
  const logo = await ctx.app.inject({ method: 'GET', url: '/logo.svg' });
  expect(logo.statusCode).toBe(200);
  expect(logo.headers['cache-control']).toBe('public, max-age=3600');
  const index = await ctx.app.inject({ method: 'GET', url: '/index.html' });
  expect(index.headers['cache-control']).toBe('no-cache');
});

test('security headers are set', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/home' });
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
});

test('scripts and stylesheets carry the headers that apply to them, not the document-only ones', async () => {
  for (const url of ['/umi.1a2b3c4d.js', '/umi.1a2b3c4d.js?v=1']) {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
  }
  // An API path that looks like a file is an API answer.
  const api = await ctx.app.inject({ method: 'GET', url: '/api/nope.js' });
  expect(api.statusCode).toBe(404);
  expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
});

test('API answers may load, run and be framed by nothing; the OpenAPI page keeps the page policy', async () => {
  for (const url of ['/api/health', '/api/user/me', '/api', '/api/docs-not']) {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  }
  const docs = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
  expect(docs.statusCode).toBe(200);
  expect(docs.headers['content-security-policy']).toMatch(/'self'/);
});

test('a missing script or stylesheet is a 404, never index.html in its place', async () => {
  for (const url of ['/umi.00000000.js', '/p__gone.12345678.async.js', '/antd.00000000.css', '/x.css?v=2']) {
    const res = await ctx.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toMatch(/text\/html/);
    expect(res.body).not.toContain('<div id="root">');
  }
  // Client routes still get the page.
  const page = await ctx.app.inject({ method: 'GET', url: '/user/login' });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('<div id="root">');
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
