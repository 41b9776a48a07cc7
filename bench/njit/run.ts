/**
 * `npm run bench:njit`: starts the real server (PORT=0, a temporary DATA_DIR), imports N synthetic
 * students through the API (default 100,000; BENCH_ROWS overrides) and reports rows/s, then measures
 * search latency with autocannon at 10 connections for student-number prefix, exact name, pinyin and
 * a filter combination, each against GET /api/health in the same run.
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
import autocannon from 'autocannon';
import { nameKeys } from '../../server/modules/njit/record';
import { syntheticCsv, syntheticStudents } from './synthetic';
import { spawnServer } from '../../tests/server/process';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_SCENARIOS=prefix,filters picks the searches (default all); health always runs first. */
const PICK = (process.env.BENCH_SCENARIOS ?? '').split(',').filter(Boolean);
const CONNECTIONS = 10;
const PASSWORD = 'bench-password-123';

interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
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
    const results: Result[] = [];
    for (const sc of scenarios) {
      // Warm-up, then the measured run.
      // /api/health is the anonymous readiness probe: no session cookie, as a load balancer calls it.
      const auth = sc.paths[0] === '/api/health' ? '' : cookie;
      await cannon(url, auth, sc.paths, 2);
      results.push({ name: sc.name, ...(await cannon(url, auth, sc.paths, SECONDS)) });
    }

    const health = results[0];
    const lines = [
      `NJIT bench (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}) — ${ROWS.toLocaleString()} synthetic students, ${CONNECTIONS} connections, ${SECONDS}s per scenario, ${os.cpus().length} CPUs`,
      '',
      `import: upload+parse+validate ${((t1 - t0) / 1000).toFixed(2)} s, commit ${((t2 - t1) / 1000).toFixed(2)} s, ` +
        `total ${secs.toFixed(2)} s => ${Math.round(summary.inserted / secs).toLocaleString()} rows/s ` +
        `(valid ${preview.validRows}, issues ${preview.issueCount}, inserted ${summary.inserted})`,
      '',
      '| scenario | req/s | p50 ms | p99 ms | req/s ÷ health | p99 ÷ health p99 | errors/non-2xx |',
      '|---|---|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${(r.rps / health.rps).toFixed(3)} | ${(r.p99 / Math.max(1, health.p99)).toFixed(1)} | ${r.errors}/${r.non2xx} |`,
      ),
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

async function cannon(url: string, cookie: string, paths: string[], duration: number): Promise<Omit<Result, 'name'>> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: cookie ? { cookie } : {},
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
