import vm from 'node:vm';
import { AnswererWrapper, OCS_HANDLER, OcsScriptInfoResponse } from '../../../src/contract';
import { USERSCRIPT_VERSION } from '../../../src/contract';
import { loggedInClient, openTestDatabase, startTestApp, type TestContext, type TestDatabase } from '../helpers';

let database: TestDatabase;
let ctx: TestContext; // no PUBLIC_URL: base URL from the request
let pub: TestContext; // PUBLIC_URL set, same database
beforeAll(async () => {
  database = await openTestDatabase();
  ctx = await startTestApp({}, database);
  pub = await startTestApp({ PUBLIC_URL: 'https://portal.example.edu/' }, database);
});
afterAll(async () => {
  await ctx?.close();
  await pub?.close();
  await database?.close();
});

async function tokenWith(scopes: string[]) {
  const { client } = await loggedInClient(ctx);
  const res = await client.post('/api/user/tokens', { name: `t${Math.random()}`, scopes, expiresInDays: null });
  return { client, token: res.json().data.token as string };
}

describe('GET /api/ocs/config', () => {
  test('answers the bare AnswererWrapper array with the token and this host’s query URL', async () => {
    const { token } = await tokenWith(['ocs:query']);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/ocs/config?token=${token}`,
      headers: { host: 'ocs.test:8443' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const body = res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(1);
    const w = AnswererWrapper.parse(body[0]);
    expect(w).toEqual({
      name: 'Portal 题库',
      homepage: 'http://ocs.test:8443/OCS/overview',
      url: 'http://ocs.test:8443/api/ocs/query',
      method: 'get',
      type: 'GM_xmlhttpRequest',
      contentType: 'json',
      data: { title: '${title}', type: '${type}', options: '${options}', token },
      handler: OCS_HANDLER,
    });
  });

  test('uses PUBLIC_URL (trailing slash dropped) and honours type and method; Bearer works too', async () => {
    const { token } = await tokenWith(['ocs:query', 'ums:send']);
    const res = await pub.app.inject({ method: 'GET', url: `/api/ocs/config?token=${token}&type=fetch&method=post` });
    expect(res.statusCode).toBe(200);
    expect(res.json()[0]).toMatchObject({
      url: 'https://portal.example.edu/api/ocs/query',
      type: 'fetch',
      method: 'post',
    });
    const bearer = await pub.app.inject({
      method: 'GET',
      url: '/api/ocs/config',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json()[0].data.token).toBe(token);
  });

  test('refuses a missing, unknown or wrongly scoped token, still readable cross-origin', async () => {
    const { token } = await tokenWith(['ums:send']);
    const none = await ctx.app.inject({ method: 'GET', url: '/api/ocs/config' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['access-control-allow-origin']).toBe('*');
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/ocs/config?token=pt_${'x'.repeat(32)}` })).statusCode,
    ).toBe(401);
    const wrong = await ctx.app.inject({ method: 'GET', url: `/api/ocs/config?token=${token}` });
    expect(wrong.statusCode).toBe(403);
    // Still the array the script imports, named after the problem, and never the token.
    expect(wrong.json()).toEqual([expect.objectContaining({ name: expect.stringMatching(/ocs:query/) })]);
    expect(wrong.body).not.toContain(token);
    expect(none.json()).toEqual([expect.objectContaining({ name: expect.stringContaining('缺少访问令牌') })]);
  });

  test('a revoked token: the array the script imports says so, and so does every question', async () => {
    const { client, token } = await tokenWith(['ocs:query']);
    const id = (await client.get('/api/user/tokens')).json().data[0].id as number;
    expect((await client.post(`/api/user/tokens/${id}/revoke`, {})).statusCode).toBe(200);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/ocs/config?token=${token}` });
    expect(res.statusCode).toBe(401);
    const [w] = res.json() as AnswererWrapper[];
    expect(w!.name).toMatch(/^访问令牌已撤销：请到门户「OCS 配置」页重新复制订阅地址$/);
    const handler = new Function(w!.handler)() as (r: unknown) => [unknown, unknown];
    expect(handler({ code: 1, question: 'q', answer: 'a' })).toEqual([w!.name, undefined]);
  });

  test('rejects an unknown request type with 400, as an array the script imports', async () => {
    const { token } = await tokenWith(['ocs:query']);
    const res = await ctx.app.inject({ method: 'GET', url: `/api/ocs/config?token=${token}&type=xhr` });
    expect(res.statusCode).toBe(400);
    expect(Array.isArray(res.json())).toBe(true);
  });
});

describe('GET /api/ocs/userscript.user.js', () => {
  test('is public, a parseable userscript with metadata pointing back at this portal', async () => {
    const res = await pub.app.inject({ method: 'GET', url: '/api/ocs/userscript.user.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const text = res.body;
    expect(text.startsWith('// ==UserScript==\n')).toBe(true);
    const meta = Object.fromEntries(
      [...text.matchAll(/^\/\/ @(\S+)[ \t]*(.*)$/gm)].filter(([, k]) => k !== 'grant').map(([, k, v]) => [k, v.trim()]),
    );
    expect(meta).toMatchObject({
      namespace: 'https://portal.example.edu',
      version: USERSCRIPT_VERSION,
      match: '*://*/*',
      connect: 'portal.example.edu',
      updateURL: 'https://portal.example.edu/api/ocs/userscript.user.js',
      downloadURL: 'https://portal.example.edu/api/ocs/userscript.user.js',
      'run-at': 'document-idle',
      noframes: '',
    });
    const grants = [...text.matchAll(/^\/\/ @grant\s+(\S+)$/gm)].map((m) => m[1]).sort();
    expect(grants).toEqual(['GM_getValue', 'GM_registerMenuCommand', 'GM_setValue', 'GM_xmlhttpRequest']);
    expect(() => new vm.Script(text)).not.toThrow();
  });

  test('derives the host from the request when PUBLIC_URL is unset, and refuses a malformed Host', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/ocs/userscript.user.js',
      headers: { host: 'school.example:8080' },
    });
    expect(res.body).toMatch(/^\/\/ @connect\s+school\.example$/m);
    expect(res.body).toContain('var BASE = "http://school.example:8080";');
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/ocs/userscript.user.js',
      headers: { host: 'evil"+alert(1)+"' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /api/ocs/script-info', () => {
  test('requires login', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/ocs/script-info' });
    expect(res.statusCode).toBe(401);
  });

  test('tells the pages the base URL, version, changelog and where the script and subscription live', async () => {
    const { client } = await loggedInClient(pub);
    const res = await client.get('/api/ocs/script-info');
    expect(res.statusCode).toBe(200);
    const { data } = OcsScriptInfoResponse.parse(res.json());
    expect(data).toMatchObject({
      baseUrl: 'https://portal.example.edu',
      version: USERSCRIPT_VERSION,
      userscriptUrl: 'https://portal.example.edu/api/ocs/userscript.user.js',
      subscriptionBase: 'https://portal.example.edu/api/ocs/config',
    });
    expect(data.changelog[0].version).toBe(USERSCRIPT_VERSION);
  });
});
