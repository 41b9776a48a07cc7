/**
 * Two portal processes on one PostgreSQL, as an institution runs them behind a load balancer: every
 * guarantee that protects money, accounts or an outside service must hold across both, not per process.
 * Needs TEST_DATABASE_URL (a throwaway cluster: `npm run test:multi`); each run uses a fresh database.
 */
import pg from 'pg';
import sampleBank from '../../server/modules/ocs/bank/sample-bank.json';
import { FakeDingTalk } from '../fixtures/fake-dingtalk';
import { spawnServer, type ServerProcess } from '../server/process';

const ADMIN_PASSWORD = 'multi-admin-password';
const BOUND_MS = 3_000;
const base = process.env.TEST_DATABASE_URL;
if (!base) throw new Error('TEST_DATABASE_URL is required: run `npm run test:multi`');

const dbName = `portal_multi_${process.pid}`;
let url: string;
let fake: FakeDingTalk;
let a: ServerProcess;
let b: ServerProcess;

/** A browser: cookies (session, device) kept per instance-independent jar, JSON in and out. */
class Browser {
  cookies = new Map<string, string>();
  async call(server: ServerProcess, method: string, path: string, body?: unknown) {
    const res = await fetch(server.url + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = { raw: text };
    }
    return { status: res.status, json };
  }
}

let seq = 0;
async function newUser(server: ServerProcess): Promise<{ browser: Browser; uid: number; username: string }> {
  const browser = new Browser();
  const username = `m${process.pid}_${++seq}`;
  const reg = await browser.call(server, 'POST', '/api/user/register', { username, password: 'multi-pass-1' });
  if (reg.status !== 200) throw new Error(`register: ${JSON.stringify(reg.json)}`);
  return { browser, uid: reg.json.data.uid, username };
}

async function tokenOf(browser: Browser, server: ServerProcess, scope: string): Promise<string> {
  const res = await browser.call(server, 'POST', '/api/user/tokens', {
    name: scope,
    scopes: [scope],
    expiresInDays: null,
  });
  if (res.status !== 200) throw new Error(`token: ${JSON.stringify(res.json)}`);
  return res.json.data.token;
}

let admin: Browser;
async function credit(uid: number, amount: number): Promise<void> {
  const res = await admin.call(a, 'POST', `/api/ocs/admin/users/${uid}/adjust`, { amount, reason: '双实例测试' });
  if (res.status !== 200) throw new Error(`adjust: ${JSON.stringify(res.json)}`);
}

type Sample = { title: string; type: string; options?: string[]; answer: string };
const questions = (sampleBank as { questions: Sample[] }).questions;
const letters = 'ABCDEFGH';

async function ask(server: ServerProcess, token: string, q: Sample) {
  const params = new URLSearchParams({ token, title: q.title, type: q.type });
  if (q.options?.length) params.set('options', q.options.map((o, i) => `${letters[i]}. ${o}`).join('\n'));
  const res = await fetch(`${server.url}/api/ocs/query?${params}`);
  return (await res.json()) as { code: number; msg?: string; answer?: string };
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = BOUND_MS): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const root = new pg.Client({ connectionString: base });
  await root.connect();
  await root.query(`drop database if exists ${dbName}`);
  await root.query(`create database ${dbName}`);
  await root.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  url = u.toString();

  fake = await new FakeDingTalk().start();
  const env = {
    DATABASE_URL: url,
    PORTAL_SECRET: 'multi-instance-secret-0123456789',
    ADMIN_PASSWORD,
    UMS_WEBHOOK_ALLOWLIST: `${fake.url}/robot/send`,
    UMS_ROBOT_PER_MINUTE: '0',
    OCS_INDEX_REFRESH_MS: '600000', // what another instance writes must arrive by its announcement
    REGISTER_RATE_LIMIT: '0',
    UI_DIR: '/nonexistent-ui',
  };
  // Both start at once on the fresh database: the migrations must not race.
  [a, b] = await Promise.all([spawnServer(env).ready, spawnServer(env).ready]);
  admin = new Browser();
  const login = await admin.call(a, 'POST', '/api/user/login', { username: 'admin', password: ADMIN_PASSWORD });
  expect(login.status).toBe(200);
  const sample = await admin.call(a, 'POST', '/api/ocs/admin/bank/sample');
  expect(sample.json.data.inserted).toBe(questions.length);
  // The other instance hears of the import and takes the questions into its memory.
  const probe = await newUser(b);
  await credit(probe.uid, 1);
  const probeToken = await tokenOf(probe.browser, b, 'ocs:query');
  await until(
    'instance b answers from the imported bank',
    async () => (await ask(b, probeToken, questions[0]!)).code === 1,
    10_000,
  );
  await applySettings(1000, 1000);
}, 120_000);

const missing = (i: number): Sample => ({ title: `双实例探测：题库里没有的题 ${i}`, type: 'single', answer: '' });

/**
 * Saves the OCS settings on a and waits (bounded) until both instances apply the rate limit: each
 * instance reads settings through a cache of a few seconds. Probing uses misses, which cost nothing.
 */
async function applySettings(ratePerSecond: number, rateBurst: number): Promise<void> {
  const saved = await admin.call(a, 'PUT', '/api/ocs/admin/settings', {
    bankPrice: 1,
    freeDaily: 10,
    fuzzyThreshold: 0.5,
    ratePerSecond,
    rateBurst,
  });
  expect(saved.status).toBe(200);
  for (const server of [a, b]) {
    await until(
      `instance on ${server.url} applies ${ratePerSecond}/s`,
      async () => {
        const probe = await newUser(a);
        const token = await tokenOf(probe.browser, a, 'ocs:query');
        const n = Math.min(ratePerSecond + 6, 30);
        const burst = await Promise.all(Array.from({ length: n }, (_, k) => ask(server, token, missing(k))));
        const limited = burst.some((r) => /请求过快/.test(r.msg ?? ''));
        return ratePerSecond >= n ? !limited : limited;
      },
      10_000,
    );
  }
}

afterAll(async () => {
  for (const s of [a, b]) {
    if (!s) continue;
    s.proc.kill('SIGTERM');
    await s.exited;
  }
  await fake?.stop();
  const root = new pg.Client({ connectionString: base });
  await root.connect();
  await root.query(`drop database if exists ${dbName}`);
  await root.end();
});

test('a session made on one instance works on the other', async () => {
  const { browser, username } = await newUser(a);
  const me = await browser.call(b, 'GET', '/api/user/me');
  expect(me).toMatchObject({ status: 200, json: { data: { username } } });
  await browser.call(b, 'POST', '/api/user/logout');
  expect((await browser.call(a, 'GET', '/api/user/me')).json).toMatchObject({
    success: false,
    errorCode: 'UNAUTHORIZED',
  });
});

test('a session signed out, or a user disabled, on one instance is refused on the other', async () => {
  const { browser } = await newUser(a);
  // The same cookie in a second browser: it keeps it after the first signs out.
  const kept = new Browser();
  kept.cookies = new Map(browser.cookies);
  expect((await kept.call(b, 'GET', '/api/user/me')).status).toBe(200); // b has it in its cache now
  expect((await browser.call(a, 'POST', '/api/user/logout')).status).toBe(200);
  const t0 = Date.now();
  await until(
    'b refuses the signed-out session',
    async () => (await kept.call(b, 'GET', '/api/user/me')).status === 401,
  );
  expect(Date.now() - t0).toBeLessThan(BOUND_MS);

  const user = await newUser(a);
  expect((await user.browser.call(b, 'GET', '/api/user/me')).status).toBe(200);
  expect((await admin.call(a, 'PATCH', `/api/user/admin/users/${user.uid}`, { status: 'disabled' })).status).toBe(200);
  await until(
    'b refuses the disabled user',
    async () => (await user.browser.call(b, 'GET', '/api/user/me')).status === 401,
  );
});

test('a token revoked on one instance is refused on the other', async () => {
  const { browser } = await newUser(a);
  const token = await tokenOf(browser, a, 'ocs:query');
  const check = (s: ServerProcess) =>
    fetch(`${s.url}/api/token/check`, { headers: { authorization: `Bearer ${token}` } });
  expect((await check(b)).status).toBe(200); // b has it in its token cache now
  const list = await browser.call(a, 'GET', '/api/user/tokens');
  expect((await browser.call(a, 'POST', `/api/user/tokens/${list.json.data[0].id}/revoke`)).status).toBe(200);
  const t0 = Date.now();
  await until('b refuses the revoked token', async () => (await check(b)).status === 401);
  expect(Date.now() - t0).toBeLessThan(BOUND_MS);
});

test('200 concurrent OCS queries split across both instances against a balance of 50 charge exactly 50', async () => {
  const { uid, browser } = await newUser(a);
  await credit(uid, 50);
  const token = await tokenOf(browser, a, 'ocs:query');
  const answers = await Promise.all(questions.slice(0, 200).map((q, k) => ask(k % 2 ? b : a, token, q)));
  expect(answers.filter((r) => r.code === 1)).toHaveLength(50);
  const refused = answers.filter((r) => r.code === 0);
  expect(refused).toHaveLength(150);
  for (const r of refused) expect(r.msg).toMatch(/余额不足/);
  expect((await browser.call(a, 'GET', '/api/ocs/wallet')).json.data.balance).toBe(0);
  const ledger = await browser.call(b, 'GET', '/api/ocs/ledger?pageSize=100&kind=charge');
  expect(ledger.json.total).toBe(50);
});

test('the same question sent to both instances at the same instant is charged once', async () => {
  for (let round = 0; round < 3; round++) {
    const { uid, browser } = await newUser(b);
    await credit(uid, 10);
    const token = await tokenOf(browser, b, 'ocs:query');
    const q = questions[10 + round]!;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(i % 2 ? b : a, token, q)));
    expect(answers.filter((r) => r.code === 1)).toHaveLength(8);
    expect((await browser.call(a, 'GET', '/api/ocs/wallet')).json.data.balance).toBe(9);
  }
});

test("a token's OCS rate limit holds across both instances", async () => {
  await applySettings(4, 4);
  try {
    const { uid, browser } = await newUser(a);
    await credit(uid, 100);
    const token = await tokenOf(browser, a, 'ocs:query');
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, k) => ask(k % 2 ? b : a, token, questions[120 + k]!)),
    );
    // About 5 in the first second across both; a limit per process would let about 10 through.
    expect(answers.filter((r) => /请求过快/.test(r.msg ?? '')).length).toBeGreaterThanOrEqual(9);
  } finally {
    await applySettings(1000, 1000);
  }
});

test("a token's UMS send limit holds across both instances, and every message is delivered exactly once", async () => {
  const { browser } = await newUser(a);
  const robot = `multi${process.pid}`;
  const channel = await browser.call(a, 'POST', '/api/ums/channels', { name: '双实例', webhook: fake.robot(robot) });
  expect(channel.status).toBe(200);
  const token = await tokenOf(browser, a, 'ums:send');
  // The burst allows 20 sends in 20 s per token: 40 sends across both instances, 20 accepted.
  const sends = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      fetch(`${(i % 2 ? b : a).url}/api/ums/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: '双实例', content: `双实例消息 ${i}` }),
      }),
    ),
  );
  const statuses = sends.map((r) => r.status);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  expect(statuses.filter((s) => s === 200)).toHaveLength(20);
  // Both instances run the delivery worker; each message reaches the robot once.
  await until('20 deliveries', async () => fake.deliveredTo(robot).length >= 20, 30_000);
  const texts = fake.deliveredTo(robot).map((r) => r.text);
  expect(new Set(texts).size).toBe(texts.length);
  const list = await browser.call(b, 'GET', '/api/ums/messages?pageSize=50');
  await until(
    'every message marked delivered',
    async () => {
      const l = await browser.call(b, 'GET', '/api/ums/messages?pageSize=50');
      return l.json.data.every((m: { status: string }) => m.status === 'delivered');
    },
    10_000,
  );
  expect(list.json.total).toBe(20);
  expect(fake.deliveredTo(robot)).toHaveLength(20);
});

test('a robot answering in 8 s, 20 messages due at once: both instances send, each message reaches it once', async () => {
  const { browser } = await newUser(a);
  const robot = `slow${process.pid}`;
  const channel = await browser.call(a, 'POST', '/api/ums/channels', {
    name: '慢机器人',
    webhook: fake.robot(robot, { delayMs: 8_000 }),
  });
  expect(channel.status).toBe(200);
  const token = await tokenOf(browser, a, 'ums:send');
  // Scheduled for one instant, so that all 20 are due at once, whoever polls first.
  const sendAt = Date.now() + 10_000;
  const sends = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`${(i % 2 ? b : a).url}/api/ums/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: `慢机器人消息 ${i}`, sendAt }),
      }),
    ),
  );
  expect(sends.map((r) => r.status)).toEqual(new Array(20).fill(200));
  const delivered = async () => {
    const l = await browser.call(b, 'GET', '/api/ums/messages?pageSize=50');
    return l.json.data.filter((m: { status: string }) => m.status === 'delivered').length === 20;
  };
  await until('20 delivered', delivered, 90_000);
  const texts = fake.deliveredTo(robot).map((r) => r.text);
  expect(texts).toHaveLength(20);
  expect(new Set(texts).size).toBe(20);
  const list = await browser.call(a, 'GET', '/api/ums/messages?pageSize=50');
  for (const m of list.json.data as { id: number }[]) {
    const detail = await browser.call(a, 'GET', `/api/ums/messages/${m.id}`);
    expect(detail.json.data.attemptLog.map((t: { outcome: string }) => t.outcome)).toEqual(['delivered']);
  }
}, 120_000);
