/**
 * `npm run bench:search`: the header's search endpoints at scale. Loads 100,000 synthetic students
 * (BENCH_STUDENTS; through the roster import's own preview and commit, as `npm run seed:njit` does) and
 * 1,000,000 synthetic bank questions (BENCH_QUESTIONS; through the bank's own upsert, as `npm run
 * bench:ocs` does) into a fresh PGlite data directory, with one user holding 10,000 UMS messages,
 * 10,000 OCS queries and 20 tokens of their own among 1,000 users. Then starts the server the way
 * `npm start` does on it and measures each search endpoint with autocannon (10 connections,
 * BENCH_SECONDS per scenario, default 10, in BENCH_ROUNDS turns, default 2, after a warm-up) over a
 * rotating set of realistic words, against GET /api/health in the same run. It reports p50 and p99 per
 * endpoint and whether the p99 is under 150 ms.
 *
 * Measuring starts once the OCS fuzzy index is loaded and the server is quiet.
 * BENCH_DATA_DIR reuses (and keeps) a directory loaded by an earlier run: the second run skips the load.
 * NJIT_QUERY_RATE_LIMIT=0 for the server: the per-user limit (30 a minute) would stop the load test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { commitImport } from '../../server/modules/njit/imports';
import { nameKeys } from '../../server/modules/njit/record';
import { prepareQuestion, type PreparedQuestion } from '../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../server/modules/ocs/bank/store';
import { createUser } from '../../server/modules/user/service';
import { createToken } from '../../server/modules/user/tokens';
import { spawnServer } from '../../tests/server/process';
import { cannon, percentile, untilFuzzyIndexLoaded, untilQuiet } from '../lib/latency';
import { previewRoster } from '../njit/preview';
import { syntheticCsv, syntheticStudents } from '../njit/synthetic';
import { generateQuestions } from '../ocs/synthetic';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100_000);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const CONNECTIONS = 10;
const USER = 'benchsearch';
const PASSWORD = 'bench-password-123';
const PERSONAL_ROWS = 10_000;
const P99_GOAL_MS = 150;

const enc = encodeURIComponent;

async function load(dataDir: string): Promise<{ seconds: number; titles: string[]; students: string[][] }> {
  const database = await openDatabase({ pgDataDir: path.join(dataDir, 'pgdata') });
  const db = database.db;
  const titles: string[] = [];
  const students = syntheticStudents(STUDENTS, { seed: 42 }).map((s) => [s.学号, s.姓名]);
  try {
    await migrateToLatest(db);
    const loaded = await db.selectFrom('users').select('id').where('username', '=', USER).executeTakeFirst();
    let i = 0;
    for (const q of generateQuestions(QUESTIONS, 7)) if (i++ % 500 === 0) titles.push(q.title);
    if (loaded) return { seconds: 0, titles, students };
    const t0 = performance.now();
    const user = await createUser(db, { username: USER, password: PASSWORD, roles: ['admin', 'njit'] });
    const actor = { id: user.id, username: USER, ip: null };
    const csv = Buffer.from(syntheticCsv(syntheticStudents(STUDENTS, { seed: 42 })));
    const preview = await previewRoster(db, actor, 'bench.csv', csv);
    await commitImport(db, actor, preview.importId);
    let batch: PreparedQuestion[] = [];
    i = 0;
    for (const q of generateQuestions(QUESTIONS, 7)) {
      const p = prepareQuestion(q);
      if ('error' in p) throw new Error(`generated question rejected: ${p.error}`);
      batch.push(p);
      if (batch.length === 10_000) {
        await upsertQuestions(db, batch, 'import');
        batch = [];
      }
      if (++i % 200_000 === 0) process.stdout.write(`  ${i.toLocaleString()} questions\n`);
    }
    if (batch.length) await upsertQuestions(db, batch, 'import');
    // Other users, and the bench user's own rows among everybody's.
    for (let u = 0; u < 1000; u += 100) {
      await db
        .insertInto('users')
        .values(
          Array.from({ length: 100 }, (_, k) => ({
            username: `bench_u${u + k}`,
            password_hash: 'x',
            nickname: `用户${u + k}`,
          })),
        )
        .execute();
    }
    const others = await db.selectFrom('users').select('id').where('username', 'like', 'bench\\_u%').execute();
    for (let n = 0; n < PERSONAL_ROWS; n += 1000) {
      const rows = Array.from({ length: 1000 }, (_, k) => n + k);
      await db
        .insertInto('ums_messages')
        .values(
          rows.flatMap((k) => [
            {
              user_id: user.id,
              type: 'text',
              title: `${titles[k % titles.length]!.slice(0, 20)} 告警 ${k}`,
              content: 'x',
              status: 'delivered',
              source: 'api',
            },
            {
              user_id: others[k % others.length]!.id,
              type: 'text',
              title: `告警 ${k}`,
              content: 'x',
              status: 'delivered',
              source: 'api',
            },
          ]),
        )
        .execute();
      await db
        .insertInto('ocs_queries')
        .values(
          rows.flatMap((k) => [
            {
              user_id: user.id,
              title: titles[k % titles.length]!,
              title_hash: `b${k}`,
              type: 'single',
              outcome: 'miss' as const,
              answer: null,
              cost: 0,
            },
            {
              user_id: others[k % others.length]!.id,
              title: titles[k % titles.length]!,
              title_hash: `o${k}`,
              type: 'single',
              outcome: 'miss' as const,
              answer: null,
              cost: 0,
            },
          ]),
        )
        .execute();
    }
    for (let k = 0; k < 20; k++)
      await createToken(db, user.id, { name: `脚本令牌 ${k}`, scopes: ['ocs:query'], expiresInDays: null });
    await sql`vacuum (analyze)`.execute(db);
    return { seconds: (performance.now() - t0) / 1000, titles, students };
  } finally {
    await database.close();
  }
}

async function main() {
  const kept = process.env.BENCH_DATA_DIR;
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-search-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const { seconds, titles, students } = await load(dataDir);
  const server = spawnServer(
    { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, NJIT_QUERY_RATE_LIMIT: '0', UMS_WORKER: 'false' },
    ['--import', 'tsx', path.join(__dirname, '../../server/main.ts')],
  );
  const { url, proc } = await server.ready;
  // The OCS fuzzy index of the million questions loads after listening, on the server's main thread:
  // measured before it is done (and the server quiet), every request waited seconds behind it.
  await untilFuzzyIndexLoaded(server);
  await untilQuiet(proc.pid!);
  proc.stdout!.removeAllListeners('data');
  proc.stdout!.resume();
  try {
    const login = await fetch(`${url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: USER, password: PASSWORD }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const picks = Array.from({ length: 200 }, (_, i) => students[(i * 7919) % students.length]!);
    const start = (t: string, i: number) => t.replace(/^[\s【[(（]*\S*?[】\])）]\s*/, '').slice(0, 2 + (i % 5));
    // Titles whose start is left empty once a leading tag is cut are skipped (an empty search is a 400).
    const words = Array.from({ length: 400 }, (_, i) => titles[(i * 31) % titles.length]!)
      .filter((t, i) => start(t, i).trim() !== '')
      .slice(0, 200);
    // What people type: the first characters of a title (2–6), an initials or pinyin start, a number's start.
    const studentWords = picks.flatMap(([no, name], i) => {
      const keys = nameKeys(name!);
      return [
        keys.name_initials,
        keys.name_pinyin.slice(0, 3 + (i % 4)),
        no!.slice(0, 6 + (i % 6)),
        name!.slice(0, 1 + (i % 2)),
      ];
    });
    const scenarios: { key: string; paths: string[] }[] = [
      { key: 'GET /api/health', paths: ['/api/health'] },
      { key: 'GET /api/njit/search', paths: studentWords.map((w) => `/api/njit/search?q=${enc(w)}`) },
      {
        key: 'GET /api/ocs/admin/bank/search',
        paths: words.flatMap((t, i) => [
          `/api/ocs/admin/bank/search?q=${enc(start(t, i))}`,
          `/api/ocs/admin/bank/search?q=${1 + ((i * 4999) % QUESTIONS)}`,
        ]),
      },
      { key: 'GET /api/ums/search', paths: words.map((t, i) => `/api/ums/search?q=${enc(start(t, i))}`) },
      { key: 'GET /api/ocs/search', paths: words.map((t, i) => `/api/ocs/search?q=${enc(start(t, i))}`) },
      {
        key: 'GET /api/user/admin/search',
        paths: ['bench_u1', '用户9', 'bench', 'zz', '用户12'].map((w) => `/api/user/admin/search?q=${enc(w)}`),
      },
      {
        key: 'GET /api/user/tokens/search',
        paths: ['脚本', '令牌 1', 'pt_', 'zz'].map((w) => `/api/user/tokens/search?q=${enc(w)}`),
      },
    ];
    const tallies = scenarios.map((s) => ({ ...s, ms: [] as number[], seconds: 0, bad: 0 }));
    for (const s of scenarios) await cannon(url, cookie, s.paths, 1, CONNECTIONS); // warm-up
    await untilQuiet(proc.pid!);
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of tallies) {
        const res = await cannon(
          url,
          t.key === 'GET /api/health' ? '' : cookie,
          t.paths,
          SECONDS / ROUNDS,
          CONNECTIONS,
        );
        t.ms.push(...res.ms);
        t.seconds += res.seconds;
        t.bad += res.errors + res.non2xx;
      }
    }
    // What the non-2xx answers were: each path once more, the first few refusals shown.
    const refused: string[] = [];
    for (const t of tallies.slice(1)) {
      for (const p of new Set(t.paths)) {
        const res = await fetch(`${url}${p}`, { headers: { cookie } });
        if (!res.ok && refused.length < 5)
          refused.push(`${res.status} ${decodeURIComponent(p)} ${(await res.text()).slice(0, 160)}`);
      }
    }
    const healthP99 = percentile(tallies[0]!.ms, 0.99);
    const f = (v: number) => v.toFixed(1);
    console.log(
      [
        `Search bench (PGlite) — ${STUDENTS.toLocaleString()} students, ${QUESTIONS.toLocaleString()} bank questions, ` +
          `${PERSONAL_ROWS.toLocaleString()} messages and queries of the caller; ${CONNECTIONS} connections, ` +
          `${ROUNDS} rounds of ${SECONDS / ROUNDS}s per endpoint, ${os.cpus().length} CPUs` +
          (seconds ? `; load ${seconds.toFixed(0)} s` : '; data reused'),
        '',
        '| endpoint | req/s | p50 ms | p99 ms | p99 ÷ health p99 | p99 < 150 ms | errors/non-2xx |',
        '|---|---|---|---|---|---|---|',
        ...tallies.map((t) => {
          const p99 = percentile(t.ms, 0.99);
          return `| ${t.key} | ${Math.round(t.ms.length / t.seconds)} | ${f(percentile(t.ms, 0.5))} | ${f(p99)} | ${(p99 / healthP99).toFixed(1)} | ${p99 < P99_GOAL_MS ? 'yes' : '**no**'} | ${t.bad} |`;
        }),
        ...(refused.length ? ['', 'refused (each path asked once more):', ...refused] : []),
      ].join('\n'),
    );
  } finally {
    proc.kill('SIGTERM');
    await server.exited;
    if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
