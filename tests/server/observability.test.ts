/**
 * Observability for operators: who may read /metrics (token or allow-listed address), what it shows
 * (HTTP by route pattern, OCS outcomes, the UMS outbox and deliveries, NJIT, the database, the process),
 * the request id of every answer and log line, and the liveness and readiness probes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareQuestion } from '../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../server/modules/ocs/bank/store';
import { credit } from '../../server/modules/ocs/wallet/balance';
import { loggedInClient, openTestDatabase, startTestApp, testConfig, type TestContext } from './helpers';

const TOKEN = 'metrics-token-0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: '10.0.0.0/8, 192.0.2.7' });
});
afterAll(async () => {
  await ctx.close();
});

const scrape = async (c: TestContext = ctx) => {
  const res = await c.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

/** The value of one sample (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const [, body = ''] = /^[^{ ]+(?:\{(.*)\})? /.exec(line) ?? [];
    const has = Object.entries(labels).every(([k, v]) => body.split(',').includes(`${k}="${v}"`));
    if (has) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('/metrics access', () => {
  test('refused without a token, with a wrong one, and from an address outside the allow-list', async () => {
    const tries = [
      {},
      { headers: { authorization: 'Bearer wrong-token-0123456789abcdef' } },
      { headers: { authorization: `Bearer ${TOKEN}x` } },
      { headers: { authorization: TOKEN } }, // not a Bearer header
      { remoteAddress: '192.168.1.5' },
      { remoteAddress: '192.0.2.8' },
      { remoteAddress: '11.0.0.1' },
      // An allowed address behind a proxy: anyone reaching the proxy would share it, so the token is needed.
      { remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '10.1.2.3' } },
    ];
    for (const t of tries) {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', ...t });
      expect({ t, status: res.statusCode }).toEqual({ t, status: 403 });
      expect(res.json()).toMatchObject({ success: false, errorCode: 'FORBIDDEN' });
      expect(res.body).not.toContain('portal_http_requests_total');
    }
  });

  test('allowed with the token and from allow-listed addresses, in the Prometheus text format', async () => {
    for (const t of [
      { headers: { authorization: `Bearer ${TOKEN}` } },
      { headers: { authorization: `bearer  ${TOKEN}` } },
      { remoteAddress: '10.1.2.3' },
      { remoteAddress: '::ffff:10.200.0.1' },
      { remoteAddress: '192.0.2.7' },
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', ...t });
      expect({ t, status: res.statusCode }).toEqual({ t, status: 200 });
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatch(/^# HELP /m);
    }
  });

  test('with neither METRICS_TOKEN nor METRICS_ALLOW nobody may read it', async () => {
    const closed = await startTestApp();
    try {
      for (const t of [{}, { headers: { authorization: `Bearer ${TOKEN}` } }, { remoteAddress: '127.0.0.1' }]) {
        const res = await closed.app.inject({ method: 'GET', url: '/metrics', ...t });
        expect(res.statusCode).toBe(403);
      }
    } finally {
      await closed.close();
    }
  });

  test('a bad METRICS_ALLOW or a short METRICS_TOKEN stops the start with the variable named', () => {
    expect(() => testConfig({ METRICS_ALLOW: '10.0.0.0/33' })).toThrow(/METRICS_ALLOW/);
    expect(() => testConfig({ METRICS_ALLOW: '10.0.0.1,localhost' })).toThrow(/METRICS_ALLOW/);
    expect(() => testConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(testConfig({ METRICS_ALLOW: ' 127.0.0.1 , ::1, fd00::/8 ' }).METRICS_ALLOW).toBeTruthy();
  });
});

describe('what /metrics shows', () => {
  test('HTTP requests, latency and errors per route pattern, never the raw URL', async () => {
    const before = await scrape();
    const labels = { method: 'GET', route: '/api/health', status_class: '2xx' };
    await ctx.app.inject({ method: 'GET', url: '/api/health' });
    await ctx.app.inject({ method: 'GET', url: '/api/health?x=1' });
    await ctx.app.inject({ method: 'GET', url: '/api/user/avatar/987654' });
    await ctx.app.inject({ method: 'GET', url: '/api/no/such/thing-123456' });
    const text = await scrape();
    expect(sample(text, 'portal_http_requests_total', labels)).toBe(
      sample(before, 'portal_http_requests_total', labels) + 2,
    );
    expect(sample(text, 'portal_http_request_duration_seconds_count', labels)).toBe(
      sample(before, 'portal_http_request_duration_seconds_count', labels) + 2,
    );
    expect(text).toMatch(/portal_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/health"/);
    expect(text).toMatch(
      /portal_http_requests_total\{method="GET",route="\/api\/user\/avatar\/:id",status_class="4xx"\}/,
    );
    expect(text).toMatch(/portal_http_requests_total\{method="GET",route="unmatched",status_class="4xx"\}/);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('thing-123456');
  });

  test('the process, the event loop and the database', async () => {
    const text = await scrape();
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect(text).toMatch(new RegExp(`^${name} `, 'm'));
    }
    if (process.env.TEST_DATABASE_URL) {
      expect(sample(text, 'portal_db_pool_total_connections')).toBeGreaterThan(0);
      expect(text).toMatch(/^portal_db_pool_waiting_clients /m);
    } else {
      expect(text).toMatch(/^portal_db_pglite_pending_requests \d+$/m);
    }
  });

  test('OCS queries by outcome and source', async () => {
    const prepared = prepareQuestion({
      title: '观测测试：水的化学式是',
      type: 'single',
      options: ['H2O', 'CO2'],
      answer: ['A'],
    });
    if ('error' in prepared) throw new Error(prepared.error);
    const rows = (await upsertQuestions(ctx.db, [prepared], 'import')).rows;
    for (const row of rows) ctx.app.ocs.bank.index.add(row.id, row.norm_title);
    const { client, uid } = await loggedInClient(ctx);
    const token = (
      await client.post('/api/user/tokens', { name: 'ocs', scopes: ['ocs:query'], expiresInDays: null })
    ).json().data.token as string;
    await credit(ctx.db, uid, 'topup', 10, '测试充值');

    const before = await scrape();
    const q = (query: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/ocs/query', query });
    const hit = await q({ token, title: '观测测试：水的化学式是', type: 'single', options: 'A. H2O\nB. CO2' });
    expect(hit.json()).toMatchObject({ code: 1, source: 'import' });
    expect((await q({ token: 'pt_nope', title: 'x' })).json().code).toBe(0);
    expect((await q({ token, title: '' })).json().code).toBe(0);
    const text = await scrape();
    const moved = (labels: Record<string, string>) =>
      sample(text, 'portal_ocs_queries_total', labels) - sample(before, 'portal_ocs_queries_total', labels);
    expect(moved({ outcome: 'answered', source: 'bank' })).toBe(1);
    expect(moved({ outcome: 'unauthorized', source: 'none' })).toBe(1);
    expect(moved({ outcome: 'invalid', source: 'none' })).toBe(1);
  });

  test('the UMS outbox depth (counted at each scrape) and delivery outcomes', async () => {
    const { uid } = await loggedInClient(ctx);
    await ctx.db
      .insertInto('ums_messages')
      .values({
        user_id: uid,
        channel_id: null,
        type: 'text',
        title: '',
        content: '观测',
        status: 'queued',
        source: 'api',
        next_attempt_at: new Date(),
      })
      .execute();
    const queued = await scrape();
    expect(sample(queued, 'portal_ums_outbox_messages', { status: 'queued' })).toBe(1);
    expect(queued).toMatch(/^portal_ums_outbox_messages\{status="retrying"\} 0$/m);

    await ctx.app.umsWorker.runOnce(); // its channel is gone: failed at once
    const after = await scrape();
    expect(sample(after, 'portal_ums_outbox_messages', { status: 'queued' })).toBe(0);
    expect(sample(after, 'portal_ums_deliveries_total', { outcome: 'channel_deleted' })).toBe(1);
  });

  test('NJIT searches', async () => {
    const { client } = await loggedInClient(ctx, ['njit']);
    const before = sample(await scrape(), 'portal_njit_searches_total');
    expect((await client.get('/api/njit/students?name=%E5%BC%A0')).statusCode).toBe(200);
    expect(sample(await scrape(), 'portal_njit_searches_total')).toBe(before + 1);
  });

  test('each app has its own registry', async () => {
    const other = await startTestApp({ METRICS_TOKEN: TOKEN });
    try {
      await other.app.inject({ method: 'GET', url: '/api/health' });
      const mine = { method: 'GET', route: '/api/health', status_class: '2xx' };
      expect(sample(await scrape(other), 'portal_http_requests_total', mine)).toBe(1);
      expect(sample(await scrape(), 'portal_http_requests_total', mine)).toBeGreaterThanOrEqual(2);
    } finally {
      await other.close();
    }
  });
});

describe('request ids', () => {
  test('every answer carries a generated X-Request-Id; a caller-sent one is ignored without TRUST_PROXY', async () => {
    const ids = new Set<string>();
    for (const url of ['/api/health', '/api/user/me', '/api/nope', '/no/such/page', '/metrics']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { 'x-request-id': 'from-the-caller' } });
      const id = res.headers['x-request-id'] as string;
      expect({ url, id }).toEqual({ url, id: expect.stringMatching(UUID) });
      ids.add(id);
    }
    expect(ids.size).toBe(5);
  });

  test('the log lines of a request carry its id', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    const id = res.headers['x-request-id'] as string;
    const lines = ctx.logs.filter((l) => l.includes(id)).map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(2); // incoming request, request completed
    for (const line of lines) expect(line.requestId).toBe(id);
  });

  test('behind a trusted proxy its sane X-Request-Id is kept, anything else is replaced', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      const id = (value: string) =>
        proxied.app
          .inject({ method: 'GET', url: '/api/health/live', headers: { 'x-request-id': value } })
          .then((r) => r.headers['x-request-id']);
      expect(await id('edge-4f2a.9_B')).toBe('edge-4f2a.9_B');
      expect(await id('a'.repeat(64))).toBe('a'.repeat(64));
      for (const bad of ['a'.repeat(65), 'has space', 'semi;colon', '"quoted"', '中文']) {
        expect(await id(bad)).toMatch(UUID);
      }
      const none = await proxied.app.inject({ method: 'GET', url: '/api/health/live' });
      expect(none.headers['x-request-id']).toMatch(UUID);
    } finally {
      await proxied.close();
    }
  });

  test('a 500 answer carries the request id in its envelope, and the error log line names it', async () => {
    const spy = jest.spyOn(ctx.app.identity, 'resolveSession').mockRejectedValueOnce(new Error('database fell over'));
    try {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: { cookie: 'portal_sid=abc' } });
      expect(res.statusCode).toBe(500);
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(UUID);
      expect(res.json()).toEqual({
        success: false,
        errorCode: 'INTERNAL',
        errorMessage: '服务器内部错误，请稍后重试',
        showType: 2,
        requestId: id,
      });
      expect(res.body).not.toContain('fell over');
      const line = ctx.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'unhandled error' && l.requestId === id);
      expect(line).toBeDefined();
      expect(line.err.message).toBe('database fell over');
      const text = await scrape();
      expect(
        sample(text, 'portal_http_errors_total', { method: 'GET', route: '/api/user/me', status_class: '5xx' }),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      spy.mockRestore();
    }
  });

  test('refusals (4xx) carry the header but no requestId in the envelope', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/user/tokens' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.json().requestId).toBeUndefined();
  });
});

describe('health probes', () => {
  test('/api/health is unchanged', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { status: 'ok', database: 'ok' } });
  });

  test('/api/health/live answers without the database', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { status: 'ok', version: expect.any(String) } });
  });

  test('/api/health/ready names the failed check: here the UI is not built', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      success: true,
      data: {
        status: 'not_ready',
        checks: { database: 'ok', migrations: 'ok', ui: 'missing' },
        failed: ['ui'],
        pendingMigrations: [],
      },
    });
  });

  test('ready with a built UI; the database going away fails readiness, not liveness', async () => {
    const uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ui-'));
    fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(uiDir, 'umi.1a2b3c4d.js'), 'console.log(1)');
    const database = await openTestDatabase();
    const app = await startTestApp({ UI_DIR: uiDir }, database);
    try {
      const ready = await app.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().data).toMatchObject({ status: 'ready', failed: [] });
      const file = await app.app.inject({ method: 'GET', url: '/umi.1a2b3c4d.js' });
      expect(file.statusCode).toBe(200);
      expect(file.headers['x-request-id']).toMatch(UUID);

      await database.close();
      const down = await app.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json().data).toMatchObject({ status: 'not_ready', failed: ['database'] });
      expect(down.json().data.checks).toMatchObject({ database: 'down', ui: 'ok' });
      expect((await app.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close().catch(() => undefined);
      fs.rmSync(uiDir, { recursive: true, force: true });
    }
  });
});
