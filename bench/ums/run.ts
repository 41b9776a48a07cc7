/**
 * `npm run bench:ums`: the UMS outbox end to end against the fake DingTalk (limiter off), on the
 * embedded database. It measures, in one run on the same machine:
 *   - GET /api/health with autocannon: the framework ceiling, the baseline of every ratio;
 *   - the enqueue latency of GET /api/ums/send under load (p50/p99, req/s);
 *   - the outbox throughput: messages delivered per second from the first enqueue to the last delivery.
 * Ratios against /api/health keep the figures comparable on a noisy shared machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { FakeDingTalk } from '../../tests/fixtures/fake-dingtalk';
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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-ums-'));
  const server = spawnServer({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: 'bench-password-123',
    UMS_WEBHOOK_ALLOWLIST: `${fake.url}/robot/send`,
    UMS_ROBOT_PER_MINUTE: '0',
    UMS_TOKEN_PER_MINUTE: '100000',
    UMS_TOKEN_BURST: '0',
  });
  const { url, proc } = await server.ready;
  // Stop keeping the request log in memory for the rest of the run.
  proc.stdout!.removeAllListeners('data');
  proc.stdout!.resume();
  try {
    const { session, token } = await umsUser(url, fake, 'bench');
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

    const rows = [
      ['GET /api/health (baseline)', health.rps, health.p50, health.p99, 1],
      ['GET /api/ums/send (enqueue)', enqueue.rps, enqueue.p50, enqueue.p99, enqueue.rps / health.rps],
      ['outbox delivered/s (end to end)', throughput, NaN, NaN, throughput / health.rps],
    ] as const;
    console.log(
      `\nUMS bench: ${CONNECTIONS} connections, ${SECONDS} s per load, embedded PGlite, fake DingTalk on 127.0.0.1`,
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
  } finally {
    proc.kill('SIGTERM');
    await server.exited;
    await fake.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
