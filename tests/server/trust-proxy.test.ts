/**
 * TRUST_PROXY trusts only the hops it names, and the client is the address the last trusted proxy saw.
 * A client's own X-Forwarded-For (kept on the left by an appending proxy, or sent straight to the
 * portal) never changes its address for the login throttle or the registration limit, and a forwarded
 * host, protocol or request id is read only from a trusted peer. The proxies are real HTTP hops on
 * 127.0.0.1 (tests/fixtures/proxy.ts); direct callers from other addresses are inject()'s remoteAddress.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config';
import { parseTrustProxy, trustProxyOption } from '../../server/lib/trust-proxy';
import { startProxy, type TestProxy } from '../fixtures/proxy';
import { startTestApp, uniqueName, type TestContext } from './helpers';

const failuresFrom = async (ctx: TestContext, username: string) =>
  (await ctx.db.selectFrom('login_failures').select('ip').where('username', '=', username.toLowerCase()).execute()).map(
    (r) => r.ip,
  );

const failLogin = (ctx: TestContext, username: string, remoteAddress: string, headers: Record<string, string>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress,
    headers,
    payload: { username, password: 'wrong-password-1' },
  });

describe.each(['append', 'replace'] as const)(
  'TRUST_PROXY=true behind a proxy on loopback that %ss X-Forwarded-For',
  (mode) => {
    let ctx: TestContext;
    let proxy: TestProxy;
    beforeAll(async () => {
      ctx = await startTestApp({ TRUST_PROXY: 'true', REGISTER_RATE_LIMIT: '20' });
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      proxy = await startProxy(`http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`, mode);
    });
    afterAll(async () => {
      await proxy?.stop();
      await ctx?.close();
    });

    /** How the portal answered `n` posts through the proxy, post i claiming to come from `${forged}${i}`. */
    async function forgedPosts(path: string, n: number, forged: string, body: (i: number) => object) {
      const byStatus = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${proxy.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `${forged}${i}` },
          body: JSON.stringify(body(i)),
        });
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        await res.arrayBuffer();
      }
      return Object.fromEntries(byStatus);
    }

    test('60 failed logins over 60 usernames, each with a forged X-Forwarded-For: all but the first 20 are throttled', async () => {
      const answers = await forgedPosts('/api/user/login', 60, '198.51.100.', (i) => ({
        username: uniqueName(`spray${i}_`),
        password: 'wrong-password-1',
      }));
      expect(answers).toEqual({ 401: 20, 429: 40 });
      const ips = await ctx.db.selectFrom('login_failures').select('ip').distinct().execute();
      expect(ips.map((r) => r.ip)).toEqual(['127.0.0.1']); // the address the proxy saw, never a forged one
    });

    test('30 registrations with forged addresses pass a 20 per minute limit 20 times', async () => {
      const answers = await forgedPosts('/api/user/register', 30, '203.0.113.', (i) => ({
        username: uniqueName(`reg${i}_`),
        password: 'pa55word-long',
      }));
      expect(answers).toEqual({ 200: 20, 429: 10 });
    });
  },
);

describe('a caller the setting does not trust', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  test('the first request with X-Forwarded-For from an untrusted address is warned about, naming the setting', async () => {
    const before = ctx.logs.length;
    for (let i = 0; i < 3; i++) {
      await ctx.app.inject({
        method: 'GET',
        url: '/api/health',
        remoteAddress: '10.1.2.3',
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
    }
    const warnings = ctx.logs.slice(before).filter((l) => l.includes('TRUST_PROXY'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, remoteAddress: '10.1.2.3', trustProxy: 'true' });
  });

  test('with TRUST_PROXY=true a direct caller from another address keeps its own address', async () => {
    const username = uniqueName('direct');
    await failLogin(ctx, username, '192.0.2.44', { 'x-forwarded-for': '198.51.100.9' });
    expect(await failuresFrom(ctx, username)).toEqual(['192.0.2.44']);
  });

  const userscript = (remoteAddress: string, headers: Record<string, string>) =>
    ctx.app.inject({ method: 'GET', url: '/api/ocs/userscript.user.js', remoteAddress, headers });

  test('its X-Forwarded-Host and -Proto are ignored: the userscript points at the Host it asked', async () => {
    const res = await userscript('192.0.2.44', {
      host: 'portal.test',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('// @connect      portal.test');
    expect(res.body).toContain('http://portal.test/api/ocs/userscript.user.js');
    expect(res.body).not.toContain('evil.example');
  });

  test('from the trusted proxy the forwarded host and protocol are read', async () => {
    const res = await userscript('127.0.0.1', {
      host: 'internal:8001',
      'x-forwarded-host': 'portal.test',
      'x-forwarded-proto': 'https',
    });
    expect(res.body).toContain('https://portal.test/api/ocs/userscript.user.js');
  });

  test("its X-Request-Id is replaced; the trusted proxy's is kept", async () => {
    const id = (remoteAddress: string) =>
      ctx.app
        .inject({ method: 'GET', url: '/api/health/live', remoteAddress, headers: { 'x-request-id': 'edge-id-1' } })
        .then((r) => r.headers['x-request-id']);
    expect(await id('192.0.2.44')).not.toBe('edge-id-1');
    expect(await id('127.0.0.1')).toBe('edge-id-1');
  });
});

describe('hop counts and proxy addresses', () => {
  test.each([
    ['1', 'one proxy, whatever its address', '172.18.0.5', '198.51.100.1, 192.0.2.50', '192.0.2.50'],
    ['2', 'two (a CDN in front of nginx)', '10.0.0.2', '198.51.100.1, 192.0.2.60, 10.0.0.9', '192.0.2.60'],
    ['10.0.0.2, 192.168.10.0/24', 'hops from them', '10.0.0.2', '198.51.100.1, 192.0.2.77, 192.168.10.4', '192.0.2.77'],
    ['10.0.0.2, 192.168.10.0/24', 'no other peer', '10.9.9.9', '198.51.100.1', '10.9.9.9'],
  ])('TRUST_PROXY=%s trusts %s', async (setting, _what, peer, forwardedFor, client) => {
    const ctx = await startTestApp({ TRUST_PROXY: setting });
    try {
      const username = uniqueName('hop');
      await failLogin(ctx, username, peer, { 'x-forwarded-for': forwardedFor });
      expect(await failuresFrom(ctx, username)).toEqual([client]);
    } finally {
      await ctx.close();
    }
  });

  test('the setting is parsed as documented, and a bad value stops the server naming the variable', () => {
    const trusts = (value: string, address: string, hop: number) => {
      const fn = trustProxyOption(parseTrustProxy(value));
      return fn !== false && fn(address, hop);
    };
    expect(trustProxyOption(parseTrustProxy('false'))).toBe(false);
    expect(trustProxyOption(parseTrustProxy(''))).toBe(false);
    expect([trusts('true', '127.0.0.1', 0), trusts('true', '::1', 0), trusts('true', '::ffff:127.0.0.1', 0)]).toEqual([
      true,
      true,
      true,
    ]);
    expect([trusts('true', '127.0.0.1', 1), trusts('true', '10.0.0.1', 0)]).toEqual([false, false]);
    expect([trusts('3', '8.8.8.8', 2), trusts('3', '8.8.8.8', 3)]).toEqual([true, false]);
    expect([trusts('fd00::/8,10.0.0.1', 'fd00::5', 4), trusts('fd00::/8,10.0.0.1', '10.0.0.2', 0)]).toEqual([
      true,
      false,
    ]);
    for (const bad of ['maybe', '10.0.0.300', '10.0.0.0/33', '11', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('the shipped deployment (deploy/)', () => {
  const read = (file: string) => fs.readFileSync(path.join(__dirname, '../../deploy', file), 'utf8');

  test('nginx replaces X-Forwarded-For and sets the forwarded host and protocol itself', () => {
    const site = read('nginx/portal.conf');
    const set = (header: string) =>
      [...site.matchAll(new RegExp(`^\\s*proxy_set_header\\s+${header}\\s+(\\S+);`, 'gim'))].map((m) => m[1]);
    expect(set('X-Forwarded-For')).toEqual(['$remote_addr']);
    expect(set('X-Forwarded-Host')).toEqual(['$host']);
    expect(set('X-Forwarded-Proto')).toEqual(['$scheme']);
  });

  test('each deployment trusts exactly its nginx: loopback under systemd, one hop in compose', () => {
    expect(read('nginx/portal-upstream.conf')).toMatch(/server 127\.0\.0\.1:8001/);
    expect(read('portal.env.example')).toMatch(/^TRUST_PROXY=true$/m);
    expect(read('compose.yaml')).toMatch(/TRUST_PROXY: '1'/);
    // compose publishes only nginx's ports: the instances are reached through it alone
    const compose = read('compose.yaml');
    expect([...compose.matchAll(/^\s{4}ports:/gm)]).toHaveLength(1);
  });
});
