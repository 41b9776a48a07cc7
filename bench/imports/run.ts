/**
 * What an import upload costs the server while it runs: the real server in a child process on a fresh
 * embedded database, one upload each (the roster .xlsx to the NJIT import, the bank JSON to the OCS
 * bank import, from bench/imports/generate.ts), the process's resident memory sampled every 20 ms
 * (baseline before the upload, peak during it, from /proc/<pid>/status) and /api/health/live asked one
 * request after another meanwhile, from a thread of its own (its slowest answer is how long the server's
 * event loop was held; sending the upload does not hold the prober).
 *
 *   npx tsx bench/imports/generate.ts && npx tsx bench/imports/run.ts [--dir DIR] [--runs 2] [--only roster|bank]
 *
 * BENCH_NODE_ARGS adds node flags to the server (e.g. `--cpu-prof`).
 *
 * Each upload gets its own server, so one does not inherit the memory another left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { BANK_FILE, DEFAULT_DIR, ROSTER_FILE } from './generate';

const ROOT = path.resolve(__dirname, '../..');
const PASSWORD = 'bench-password-1';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const rssMb = (pid: number): number | null => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  proc: ChildProcess;
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-import-bench-data-'));
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      UMS_WORKER: 'false',
      UI_DIR: '/nonexistent-ui',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health/live`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 1800) throw new Error('server did not start');
    await sleep(100);
  }
  return {
    proc,
    url,
    dataDir,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A session of an administrator with the njit role, as a cookie header. */
async function signIn(url: string): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: url };
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('portal_sid='))!;
  const admin = cookieOf(
    await fetch(`${url}/api/user/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    }),
  );
  const created = await fetch(`${url}/api/user/admin/users`, {
    method: 'POST',
    headers: { ...headers, cookie: admin },
    body: JSON.stringify({ username: 'bench', password: PASSWORD, roles: ['admin', 'njit'] }),
  });
  if (!created.ok) throw new Error(`create user: ${created.status} ${await created.text()}`);
  return cookieOf(
    await fetch(`${url}/api/user/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ username: 'bench', password: PASSWORD }),
    }),
  );
}

/**
 * Asks `url` one request after another (10 ms apart) on a thread of its own until stopped, and gives
 * the time of each answer: the upload's own work in this thread (sending 45 MB) does not count.
 */
function startProber(url: string): { stop(): Promise<number[]> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let done = false;
    const latencies = [];
    parentPort.once('message', () => { done = true; });
    (async () => {
      while (!done) {
        const t = performance.now();
        await (await fetch(workerData.url)).arrayBuffer();
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
      parentPort.postMessage(latencies);
    })();`,
    { eval: true, workerData: { url } },
  );
  const result = new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      worker.postMessage('stop');
      const latencies = await result;
      await worker.terminate();
      return latencies;
    },
  };
}

interface Measure {
  upload: string;
  status: number;
  seconds: number;
  baselineMb: number;
  peakMb: number;
  healthMaxMs: number;
  healthP99Ms: number;
  healthCount: number;
}

async function measure(label: string, endpoint: string, file: string): Promise<Measure> {
  const server = await startServer();
  try {
    const cookie = await signIn(server.url);
    const pid = server.proc.pid!;
    await sleep(2000); // the start's own work settles
    const before: number[] = [];
    for (let i = 0; i < 25; i++) {
      before.push(rssMb(pid)!);
      await sleep(20);
    }
    const baselineMb = before.sort((a, b) => a - b)[Math.floor(before.length / 2)]!;
    let peakMb = baselineMb;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        peakMb = Math.max(peakMb, rssMb(pid) ?? 0);
        await sleep(20);
      }
    })();
    const prober = startProber(`${server.url}/api/health/live`);
    const form = new FormData();
    form.append('file', await fs.openAsBlob(file), path.basename(file));
    const started = performance.now();
    const res = await fetch(`${server.url}${endpoint}`, {
      method: 'POST',
      headers: { cookie, origin: server.url },
      body: form,
    });
    await res.arrayBuffer();
    const seconds = (performance.now() - started) / 1000;
    // The worker that parsed the file (if any) gives its memory back afterwards: keep watching a moment.
    await sleep(500);
    done = true;
    const [latencies] = await Promise.all([prober.stop(), sampler]);
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      upload: label,
      status: res.status,
      seconds,
      baselineMb,
      peakMb,
      healthMaxMs: sorted.at(-1) ?? 0,
      healthP99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
      healthCount: sorted.length,
    };
  } finally {
    await server.stop();
  }
}

async function main() {
  const dir = arg('dir', DEFAULT_DIR);
  const runs = Number(arg('runs', '2'));
  const only = arg('only', '');
  const roster = path.join(dir, ROSTER_FILE);
  const bank = path.join(dir, BANK_FILE);
  for (const f of [roster, bank]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: run npx tsx bench/imports/generate.ts first`);
  }
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`roster ${mb(fs.statSync(roster).size)}, bank ${mb(fs.statSync(bank).size)}; ${os.cpus().length} CPUs`);
  const rows: Measure[] = [];
  for (let run = 1; run <= runs; run++) {
    if (only !== 'bank') rows.push(await measure(`NJIT roster .xlsx (run ${run})`, '/api/njit/imports', roster));
    if (only !== 'roster') rows.push(await measure(`OCS bank JSON (run ${run})`, '/api/ocs/admin/bank/imports', bank));
  }
  console.log('| upload | answer | upload time | RSS before | RSS peak | added | health max | health p99 | probes |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.upload} | ${r.status} | ${r.seconds.toFixed(1)} s | ${r.baselineMb.toFixed(0)} MB | ${r.peakMb.toFixed(0)} MB | ` +
        `${(r.peakMb - r.baselineMb).toFixed(0)} MB | ${r.healthMaxMs.toFixed(0)} ms | ${r.healthP99Ms.toFixed(0)} ms | ${r.healthCount} |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
