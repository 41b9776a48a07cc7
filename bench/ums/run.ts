/**
 * `npm run bench:ums`: the UMS outbox end to end against fake robots (limiters and pacing off), on the
 * embedded database. It measures, in one run on the same machine:
 *   - GET /api/health with autocannon: the framework ceiling, the baseline of every ratio;
 *   - the enqueue latency of GET /api/ums/send under load (p50/p99, req/s), to one DingTalk channel;
 *   - the outbox throughput: messages delivered per second from the first enqueue to the last delivery;
 *   - the same with fan-out to three channels (DingTalk, WeCom, Feishu: `channels=a,b,c`, three messages
 *     per send): sends accepted and deliveries per second, and deliveries against the single-channel run.
 * Ratios against /api/health keep the figures comparable on a noisy shared machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { FakeDingTalk } from '../../tests/fixtures/fake-dingtalk';
import { FakeFeishu } from '../../tests/fixtures/fake-feishu';
import { FakeWeCom } from '../../tests/fixtures/fake-wecom';
import { call, umsUser, waitFor } from '../../tests/fixtures/ums-client';
import { spawnServer } from '../../tests/server/process';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

async function cannon(url: string) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, total: r.requests.total };
}

async function main() {
  const fake = await new FakeDingTalk().start();
  const wecom = await new FakeWeCom().start();
  const feishu = await new FakeFeishu().start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-ums-'));
  const server = spawnServer({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: 'bench-password-123',
    UMS_WEBHOOK_ALLOWLIST: [
      `${fake.url}/robot/send`,
      `${wecom.url}/cgi-bin/webhook/send`,
      `${feishu.url}/open-apis/bot/v2/hook/`,
    ].join(','),
    UMS_ROBOT_PER_MINUTE: '0',
    UMS_FEISHU_PER_MINUTE: '0',
    UMS_TOKEN_PER_MINUTE: '100000',
    UMS_TOKEN_BURST: '0',
    UMS_USER_PER_MINUTE: '0',
  });
  const { url, proc } = await server.ready;
  // Stop keeping the request log in memory for the rest of the run.
  proc.stdout!.removeAllListeners('data');
  proc.stdout!.resume();
  try {
    const { session, token } = await umsUser(url, fake, 'bench', { perMinute: 0 });
    const health = await cannon(`${url}/api/health`);

    const t0 = performance.now();
    const enqueue = await cannon(`${url}/api/ums/send?token=${token}&content=bench`);
    // Count what the outbox holds: requests still in flight when autocannon stopped were stored too.
    const enqueued = (await call(session, 'GET', '/api/ums/stats')).data.total as number;
    await waitFor(
      async () => ((await call(session, 'GET', '/api/ums/stats')).data.byStatus.delivered ?? 0) >= enqueued,
      'every message delivered',
      600_000,
    );
    const seconds = (performance.now() - t0) / 1000;
    const final = (await call(session, 'GET', '/api/ums/stats')).data;
    await waitFor(async () => fake.deliveredTo('bench').length >= final.total, 'late messages', 60_000);
    const delivered = fake.deliveredTo('bench').length;
    const throughput = delivered / seconds;

    // ---- fan-out: every send is three messages, to DingTalk, WeCom and Feishu ----
    const fan = await umsUser(url, fake, 'benchfan', { perMinute: 0 });
    const ids = [(await call(fan.session, 'GET', '/api/ums/channels')).data[0].id as number];
    for (const body of [
      { kind: 'wecom', name: 'w', webhook: wecom.robot('benchfan', { perMinute: 0 }) },
      { kind: 'feishu', name: 'f', webhook: feishu.bot('benchfan', { perMinute: 0 }) },
    ])
      ids.push((await call(fan.session, 'POST', '/api/ums/channels', body)).data.id);
    const atFakes = () =>
      fake.deliveredTo('benchfan').length +
      wecom.deliveredTo('benchfan').length +
      feishu.deliveredTo('benchfan').length;
    const f0 = performance.now();
    const fanEnqueue = await cannon(`${url}/api/ums/send?token=${fan.token}&content=bench&channels=${ids.join(',')}`);
    const fanStored = (await call(fan.session, 'GET', '/api/ums/stats')).data.total as number;
    await waitFor(
      async () => ((await call(fan.session, 'GET', '/api/ums/stats')).data.byStatus.delivered ?? 0) >= fanStored,
      'every fan-out message delivered',
      600_000,
    );
    const fanSeconds = (performance.now() - f0) / 1000;
    const fanDelivered = atFakes();
    const fanThroughput = fanDelivered / fanSeconds;
    const fanSends = fanStored / 3 / fanSeconds;

    const rows = [
      ['GET /api/health (baseline)', health.rps, health.p50, health.p99, 1],
      ['GET /api/ums/send (enqueue, 1 channel)', enqueue.rps, enqueue.p50, enqueue.p99, enqueue.rps / health.rps],
      ['outbox delivered/s (1 channel, end to end)', throughput, NaN, NaN, throughput / health.rps],
      [
        'GET /api/ums/send?channels=a,b,c (enqueue, fan-out)',
        fanEnqueue.rps,
        fanEnqueue.p50,
        fanEnqueue.p99,
        fanEnqueue.rps / health.rps,
      ],
      ['outbox delivered/s (fan-out to 3 channels)', fanThroughput, NaN, NaN, fanThroughput / health.rps],
      ['fan-out sends completed/s (3 deliveries each)', fanSends, NaN, NaN, fanSends / health.rps],
    ] as const;
    console.log(
      `\nUMS bench: ${CONNECTIONS} connections, ${SECONDS} s per load, embedded PGlite, fake robots on 127.0.0.1`,
    );
    console.log('| measure | per second | p50 ms | p99 ms | ratio to /api/health |');
    console.log('|---|---|---|---|---|');
    for (const [name, rate, p50, p99, ratio] of rows) {
      const ms = (v: number) => (Number.isNaN(v) ? '—' : String(v));
      console.log(`| ${name} | ${rate.toFixed(0)} | ${ms(p50)} | ${ms(p99)} | ${ratio.toFixed(3)} |`);
    }
    console.log(
      `\n${final.total} messages stored (${enqueue.non2xx} refused), ${delivered} deliveries at the fake in ${seconds.toFixed(1)} s ` +
        `(${delivered - final.total} duplicates).`,
    );
    console.log(
      `Fan-out: ${fanStored / 3} sends = ${fanStored} messages (${fanEnqueue.non2xx} refused), ${fanDelivered} deliveries ` +
        `in ${fanSeconds.toFixed(1)} s (${fanDelivered - fanStored} duplicates); deliveries/s against the single-channel ` +
        `run: ${(fanThroughput / throughput).toFixed(2)}×, sends/s: ${(fanSends / throughput).toFixed(2)}×.`,
    );
  } finally {
    proc.kill('SIGTERM');
    await server.exited;
    await Promise.all([fake.stop(), wecom.stop(), feishu.stop()]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
