/**
 * Live notifications across two portal processes on one PostgreSQL: a notification a real action
 * creates through instance A (a sign-in from a browser the account does not know) reaches the
 * account's event stream open on instance B, through LISTEN/NOTIFY; marking read on A tells B's stream
 * the new count; and an instance that shuts down with a stream open ends it instead of waiting for it.
 * Needs TEST_DATABASE_URL (`npm run test:multi`); each run uses a fresh database.
 */
import pg from 'pg';
import { spawnServer, type ServerProcess } from '../server/process';

const base = process.env.TEST_DATABASE_URL;
if (!base) throw new Error('TEST_DATABASE_URL is required: run `npm run test:multi`');

const dbName = `portal_multi_live_${process.pid}`;
let a: ServerProcess;
let b: ServerProcess;

/** A browser's cookie jar (session and device), one per simulated browser. */
function jar() {
  const cookies = new Map<string, string>();
  const header = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    header,
    async post(server: ServerProcess, path: string, body: unknown) {
      const res = await fetch(server.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: header() },
        body: JSON.stringify(body),
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      return { status: res.status, json: (await res.json()) as { data?: Record<string, unknown> } };
    },
  };
}

/** An open event stream on one instance: its events in order, read as they arrive. */
async function openStream(server: ServerProcess, cookie: string) {
  const abort = new AbortController();
  const res = await fetch(`${server.url}/api/notifications/stream`, { headers: { cookie }, signal: abort.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  let buffer = '';
  let ended = false;
  return {
    events,
    get ended() {
      return ended;
    },
    /** Reads until the n-th event has come (0: the count the stream opens with); null if it ended first. */
    async event(n: number) {
      while (events.length <= n && !ended) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) {
          ended = true;
          break;
        }
        buffer += value;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
      return events[n] ?? null;
    },
    close: () => abort.abort(),
  };
}

beforeAll(async () => {
  const root = new pg.Client({ connectionString: base });
  await root.connect();
  await root.query(`drop database if exists ${dbName}`);
  await root.query(`create database ${dbName}`);
  await root.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  const env = {
    DATABASE_URL: u.toString(),
    PORTAL_SECRET: 'multi-instance-secret-0123456789',
    ADMIN_PASSWORD: 'multi-admin-password',
    REGISTER_RATE_LIMIT: '0',
    UI_DIR: '/nonexistent-ui',
  };
  a = await spawnServer(env).ready;
  b = await spawnServer(env).ready;
}, 120_000);

afterAll(async () => {
  for (const s of [a, b]) {
    if (!s || s.proc.exitCode !== null || s.proc.signalCode !== null) continue;
    s.proc.kill('SIGTERM');
    await s.exited;
  }
  const root = new pg.Client({ connectionString: base });
  await root.connect();
  await root.query(`drop database if exists ${dbName}`);
  await root.end();
});

test("a sign-in from a new browser through A reaches the account's stream on B; marking read on A tells it too", async () => {
  const username = `live${process.pid}`;
  const password = 'multi-pass-1';
  const home = jar();
  expect((await home.post(a, '/api/user/register', { username, password })).status).toBe(200);
  // Sign in once from this browser so the account knows it.
  expect((await home.post(a, '/api/user/login', { username, password })).status).toBe(200);

  const stream = await openStream(b, home.header());
  expect(await stream.event(0)).toEqual({ event: 'unread', data: { unread: 0 } });

  const elsewhere = jar();
  expect((await elsewhere.post(a, '/api/user/login', { username, password })).status).toBe(200);
  expect(await stream.event(1)).toMatchObject({
    event: 'notification',
    data: { unread: 1, item: { kind: 'user.new-browser' } },
  });

  const read = await home.post(a, '/api/notifications/read-all', {});
  expect(read.json.data).toEqual({ updated: 1, unread: 0 });
  expect(await stream.event(2)).toEqual({ event: 'unread', data: { unread: 0 } });
  stream.close();
});

test('an instance shutting down ends its open streams instead of waiting for them', async () => {
  const username = `live${process.pid}x`;
  const home = jar();
  expect((await home.post(b, '/api/user/register', { username, password: 'multi-pass-1' })).status).toBe(200);
  const stream = await openStream(b, home.header());
  await stream.event(0);
  b.proc.kill('SIGTERM');
  expect(await b.exited).toEqual({ code: 0, signal: null });
  expect(await stream.event(1)).toBeNull();
  expect(stream.ended).toBe(true);
});
