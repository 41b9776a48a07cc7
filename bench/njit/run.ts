/**
 * `npm run bench:njit`: starts the real server (PORT=0, a temporary DATA_DIR), imports N synthetic
 * students through the API (default 100,000; BENCH_ROWS overrides) and reports rows/s, then measures
 * search latency with autocannon at 10 connections for student-number prefix, exact name, pinyin and
 * a filter combination, each against GET /api/health in the same run.
 *
 * The scenarios take turns: BENCH_ROUNDS rounds (default 5), each running health and then every search
 * for BENCH_SECONDS ÷ rounds, so a drift of the machine's speed during the run reaches the baseline as
 * much as the searches. Latencies are the client's own, to the microsecond (autocannon's summary
 * rounds them to whole milliseconds, which at health's 4–7 ms p99 moved the ratio by up to a half),
 * pooled over the rounds; each round's ratio is reported as well.
 *
 * PGlite in the temporary DATA_DIR by default. With DATABASE_URL (inherited by the server) it runs on
 * that PostgreSQL instead, which must be a throwaway database: the import adds 100,000 students, e.g.
 * `bash .ci/postgres.sh bash -c 'DATABASE_URL=$TEST_DATABASE_URL npm run bench:njit'`.
 *
 * The per-user query limit would stop a load test after 30 requests, so the bench starts its server
 * with NJIT_QUERY_RATE_LIMIT=0 (documented as "no limit"; production keeps the default of 30). With
 * the limit on, each lookup also counts at most 30 of the user's audit rows from the last minute
 * through an index, inside the same statement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nameKeys } from '../../server/modules/njit/record';
import { syntheticCsv, syntheticStudents } from './synthetic';
import { spawnServer } from '../../tests/server/process';
import { cannon as cannonAt, percentile } from '../lib/latency';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** BENCH_SCENARIOS=prefix,filters picks the searches (default all); health always runs first. */
const PICK = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);
const CONNECTIONS = 10;
const PASSWORD = 'bench-password-123';
const cannon = (url: string, cookie: string, paths: string[], duration: number) =>
  cannonAt(url, cookie, paths, duration, CONNECTIONS);

/** One scenario's responses over all rounds. */
interface Tally {
  key: string;
  name: string;
  /** Latency of every 2xx response, ms. */
  ms: number[];
  /** p99 of each round, ms. */
  roundP99: number[];
  seconds: number;
  errors: number;
  non2xx: number;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-njit-'));
  // BENCH_NODE_ARGS: extra node flags for the server (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawnServer(
    { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, NJIT_QUERY_RATE_LIMIT: '0', UMS_WORKER: 'false' },
    [...nodeArgs, '--import', 'tsx', path.join(__dirname, '../../server/main.ts')],
  );
  const { url, proc } = await server.ready;
  // Stop collecting request logs in memory for the rest of the run.
  proc.stdout!.removeAllListeners('data');
  proc.stdout!.resume();
  try {
    const login = await fetch(`${url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const uid = ((await login.json()) as { data: { uid: number } }).data.uid;
    const grant = await fetch(`${url}/api/user/admin/users/${uid}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ roles: ['admin', 'njit'] }),
    });
    if (!grant.ok) throw new Error(`granting njit failed: ${grant.status} ${await grant.text()}`);

    // --- import ---
    const students = syntheticStudents(ROWS, { seed: 42 });
    const csv = Buffer.from(syntheticCsv(students));
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
    const up = await fetch(`${url}/api/njit/imports`, { method: 'POST', headers: { cookie }, body: form });
    if (!up.ok) throw new Error(`upload failed: ${up.status} ${await up.text()}`);
    const preview = ((await up.json()) as { data: { importId: string; validRows: number; issueCount: number } }).data;
    const t1 = performance.now();
    const commit = await fetch(`${url}/api/njit/imports/${preview.importId}/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    if (!commit.ok) throw new Error(`commit failed: ${commit.status} ${await commit.text()}`);
    const summary = ((await commit.json()) as { data: { inserted: number } }).data;
    const t2 = performance.now();
    const secs = (t2 - t0) / 1000;

    // --- search ---
    const sample = (n: number) => Array.from({ length: n }, (_, i) => students[(i * 7919) % students.length]);
    const picks = sample(200);
    const q = (params: Record<string, string | number>) =>
      `/api/njit/students?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`;
    const all: { key: string; name: string; paths: string[] }[] = [
      { key: 'health', name: 'GET /api/health', paths: ['/api/health'] },
      {
        key: 'prefix',
        name: '学号前缀 studentNo prefix',
        paths: picks.map((s) => q({ studentNo: s.学号.slice(0, 9) })),
      },
      { key: 'exact', name: '姓名精确 exact name', paths: picks.map((s) => q({ name: s.姓名, nameMode: 'exact' })) },
      { key: 'pinyin', name: '拼音 pinyin', paths: picks.map((s) => q({ name: pinyinOf(s.姓名) })) },
      {
        key: 'filters',
        name: '筛选组合 filters',
        paths: picks.map((s) => q({ college: s.学院, grade: s.年级, status: '在读', major: s.专业 })),
      },
    ];
    const scenarios = all.filter((sc) => sc.key === 'health' || PICK.length === 0 || PICK.includes(sc.key));
    const tallies: Tally[] = scenarios.map((sc) => ({ ...sc, ms: [], roundP99: [], seconds: 0, errors: 0, non2xx: 0 }));
    // /api/health is the anonymous readiness probe: no session cookie, as a load balancer calls it.
    const authOf = (sc: { key: string }) => (sc.key === 'health' ? '' : cookie);
    for (const sc of scenarios) await cannon(url, authOf(sc), sc.paths, 1); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, sc] of scenarios.entries()) {
        const r = await cannon(url, authOf(sc), sc.paths, SECONDS / ROUNDS);
        const t = tallies[i];
        t.ms.push(...r.ms);
        t.roundP99.push(percentile(r.ms, 0.99));
        t.seconds += r.seconds;
        t.errors += r.errors;
        t.non2xx += r.non2xx;
      }
    }

    const health = tallies[0];
    const healthRps = health.ms.length / health.seconds;
    const healthP99 = percentile(health.ms, 0.99);
    const f = (v: number) => v.toFixed(2);
    const lines = [
      `NJIT bench (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}) — ${ROWS.toLocaleString()} synthetic students, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS / ROUNDS}s per scenario in turn, ${os.cpus().length} CPUs`,
      '',
      `import: upload+parse+validate ${((t1 - t0) / 1000).toFixed(2)} s, commit ${((t2 - t1) / 1000).toFixed(2)} s, ` +
        `total ${secs.toFixed(2)} s => ${Math.round(summary.inserted / secs).toLocaleString()} rows/s ` +
        `(valid ${preview.validRows}, issues ${preview.issueCount}, inserted ${summary.inserted})`,
      '',
      '| scenario | req/s | p50 ms | p99 ms | req/s ÷ health | p99 ÷ health p99 | each round | errors/non-2xx |',
      '|---|---|---|---|---|---|---|---|',
      ...tallies.map((t) => {
        const rps = t.ms.length / t.seconds;
        const p99 = percentile(t.ms, 0.99);
        const rounds = t.roundP99.map((v, i) => (v / health.roundP99[i]).toFixed(1)).join(' ');
        return `| ${t.name} | ${Math.round(rps)} | ${f(percentile(t.ms, 0.5))} | ${f(p99)} | ${(rps / healthRps).toFixed(3)} | **${(p99 / healthP99).toFixed(2)}** | ${rounds} | ${t.errors}/${t.non2xx} |`;
      }),
    ];
    console.log(lines.join('\n'));
  } finally {
    proc.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The way a user types a name in pinyin: full syllables, lower case. */
function pinyinOf(name: string): string {
  return nameKeys(name).name_pinyin;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
