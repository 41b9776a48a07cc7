/**
 * What every request meets at the edge. Text PostgreSQL cannot store (NUL characters, lone UTF-16
 * surrogates) is refused for every endpoint of the contract, with the field named and nothing written —
 * before, NUL gave HTTP 500 on 15 endpoints (login among them) and a lone surrogate in an admin's edit
 * broke the audit-log insert. And answers about a caller are never cached.
 */
import { allEndpoints } from '../../src/contract/api';
import { startTestApp, loggedInClient, type TestContext, type Client } from './helpers';

let ctx: TestContext;
let admin: Client;
beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin', 'njit'])).client;
});
afterAll(async () => {
  await ctx.close();
});

const concrete = (path: string) => path.replace(/:(\w+)/g, '1');

test('NUL in a login is a 400 naming the field, not a 500', async () => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username: 'ad\u0000min', password: 'whatever-123' },
  });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({
    success: false,
    errorCode: 'VALIDATION_FAILED',
    data: { username: [expect.any(String)] },
  });
});

test('a lone surrogate (a JSON \\ud800 escape) in a nested field is refused with its path', async () => {
  const res = await admin.request({
    method: 'POST',
    url: '/api/ums/messages',
    headers: { 'content-type': 'application/json' },
    payload: '{"title":"ok","content":"x","extra":{"deep":["fine","bad \\ud800"]}}',
  });
  expect(res.statusCode).toBe(400);
  expect(Object.keys(res.json().data)).toEqual(['extra.deep.1']);
});

test('an admin edit with a lone surrogate is refused and writes no audit row', async () => {
  const { uid } = await loggedInClient(ctx);
  const before = await ctx.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const res = await admin.request({
    method: 'PATCH',
    url: `/api/user/admin/users/${uid}`,
    headers: { 'content-type': 'application/json' },
    payload: '{"nickname":"\\udc00x"}',
  });
  expect(res.statusCode).toBe(400);
  const after = await ctx.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number(after.n)).toBe(Number(before.n));
});

describe('JSON text nested inside a field is checked once decoded, like any other input', () => {
  // `vars` carries JSON as text in a query or form field (and may in a JSON body): `\u0000` and
  // `\ud800` written as escapes inside it are plain ASCII until the text is decoded.
  const NESTED: [string, string][] = [
    ['an escaped NUL', '{"host":"a\\u0000b"}'],
    ['an escaped lone surrogate', '{"host":"a\\ud800b"}'],
  ];
  let token: string;
  let uid: number;
  let client: Client;
  beforeAll(async () => {
    ({ client, uid } = await loggedInClient(ctx));
    const channel = await client.post('/api/ums/channels', {
      name: 'edge',
      webhook: 'https://oapi.dingtalk.com/robot/send?access_token=0123456789abcdef0123',
      isDefault: true,
    });
    expect(channel.statusCode).toBe(200);
    expect((await client.post('/api/ums/templates', { name: 'T', content: '{{host}}' })).statusCode).toBe(200);
    token = (await client.post('/api/user/tokens', { name: 'edge', scopes: ['ums:send'], expiresInDays: null })).json()
      .data.token;
  });
  const queued = async () =>
    Number(
      (
        await ctx.db
          .selectFrom('ums_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', uid)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const refusedWithField = (res: { statusCode: number; json(): { data?: Record<string, string[]> } }) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toEqual({ 'vars.host': [expect.stringContaining('\\u0000')] });
  };

  test.each(NESTED)('%s in vars as a query parameter', async (_name, vars) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/ums/send?token=${token}&template=T&vars=${encodeURIComponent(vars)}`,
    });
    refusedWithField(res);
    expect(await queued()).toBe(0);
  });

  test.each(NESTED)('%s in vars as a form field', async (_name, vars) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/ums/send',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      payload: new URLSearchParams({ template: 'T', vars }).toString(),
    });
    refusedWithField(res);
    expect(await queued()).toBe(0);
  });

  test.each(NESTED)('%s in vars as JSON text inside a JSON body (token API)', async (_name, vars) => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/ums/send',
      headers: { authorization: `Bearer ${token}` },
      payload: { template: 'T', vars },
    });
    refusedWithField(res);
    expect(await queued()).toBe(0);
  });

  test.each(NESTED)('%s in vars as JSON text of a logged-in POST /api/ums/messages', async (_name, vars) => {
    refusedWithField(await client.post('/api/ums/messages', { template: 'T', vars }));
    expect(await queued()).toBe(0);
  });

  test('clean JSON text in vars still fills the template', async () => {
    const res = await client.post('/api/ums/messages', { template: 'T', vars: '{"host":"web-1"}' });
    expect(res.statusCode).toBe(200);
    expect(await queued()).toBe(1);
  });
});

describe('every endpoint refuses NUL in its input, and none answers 500', () => {
  const endpoints = allEndpoints().filter(([, e]) => e.method !== 'OPTIONS' && !e.multipart);
  test.each(endpoints.map(([name, e]) => [name, e.method, e.path, e.access] as const))(
    '%s (%s %s)',
    async (_name, method, path, access) => {
      const url = concrete(path);
      const res =
        method === 'GET' || method === 'DELETE'
          ? await admin.request({ method, url: `${url}?probe=a%00b` })
          : await admin.request({ method, url, payload: { probe: 'a\u0000b' } });
      if (access === 'ocs-token') {
        // The OCS script's API answers every refusal as HTTP 200 in its own shape.
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ code: 0 });
        return;
      }
      if (!path.startsWith('/api/')) {
        // The ServerChan and PushPlus look-alikes answer in those services' shapes: a refusal, never a 500.
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        return;
      }
      expect(res.statusCode).toBe(400);
      if (path === '/api/ocs/config') {
        // The subscription URL answers what the OCS script imports: one wrapper named after the problem.
        expect(res.json()).toEqual([expect.objectContaining({ name: expect.stringContaining('probe') })]);
        return;
      }
      expect(res.json()).toMatchObject({ success: false, data: { probe: [expect.stringContaining('\\u0000')] } });
    },
  );

  test('no refusal logged an error with a stack', () => {
    expect(ctx.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });
});

test('authenticated JSON answers, and refusals, are never cached', async () => {
  for (const url of ['/api/user/me', '/api/user/tokens', '/api/ocs/wallet']) {
    const res = await admin.get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  }
  const refused = await ctx.app.inject({ method: 'GET', url: '/api/user/tokens' });
  expect(refused.statusCode).toBe(401);
  expect(refused.headers['cache-control']).toBe('no-store');
});

test("the router's own refusals (a malformed %-escape, an over-long path parameter) answer the envelope", async () => {
  for (const [url, status] of [
    ['/api/ocs/admin/bank/questions/%E0%A4%A', 400],
    ['/api/ocs/admin/bank/questions/%', 400],
    ['/api/user/admin/users/%ED%A0%80', 400],
    [`/api/ocs/admin/bank/questions/${'x'.repeat(200)}`, 414],
  ] as const) {
    const res = await admin.request({ method: 'GET', url });
    expect({ url, status: res.statusCode }).toEqual({ url, status });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({
      success: false,
      errorCode: expect.any(String),
      errorMessage: expect.any(String),
    });
  }
});
