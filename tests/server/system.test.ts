import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openTestDatabase, startTestApp, type TestContext, type TestDatabase } from './helpers';

let database: TestDatabase;
let ctx: TestContext;
let uiDir: string;
beforeAll(async () => {
  uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ui-'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>门户</title><div id="root"></div>');
  fs.writeFileSync(path.join(uiDir, 'umi.1a2b3c4d.js'), 'console.log(1)');
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
