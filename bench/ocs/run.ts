/**
 * `npm run bench:ocs`: the OCS query API against a large synthetic bank, on the embedded database or,
 * with BENCH_DATABASE_URL (or DATABASE_URL) set, on that PostgreSQL.
 *
 * 1. Generates BENCH_QUESTIONS questions (default 1,000,000) and loads them through the bank's own
 *    upsert (timed), with BENCH_USERS bench users (default: one per connection, at least 16 a round),
 *    each with a token and a balance: into a fresh PGlite data directory, or into the PostgreSQL
 *    database the URL names (skipped when it already holds the bank). Then
 *    `vacuum (analyze)` of the bank, as the server's maintenance job (or autovacuum) does after an import.
 * 2. Starts the server the way `npm start` does (bench/ocs/server.ts adds only the raw-lookup probe),
 *    on that database (PORTAL_SECRET is set for it on PostgreSQL).
 * 3. autocannon, BENCH_CONNECTIONS (50) connections, BENCH_SECONDS (10) per workload: /api/health (framework
 *    ceiling), the raw hash lookup (database ceiling), exact hits, other exact hits 100 at a time through
 *    POST /api/ocs/query/batch (throughput in questions per second against single queries), perturbed hits
 *    (fuzzy path: cut-off titles and reworded ones) and misses (near misses and unrelated questions). Every
 *    answer of the exact, batch and fuzzy workloads is paid: each run (warm-ups too) asks its questions as
 *    users that have not asked them yet, so none is a free repeat out of the 10-minute cache; it warns when
 *    BENCH_USERS is too few for that. Each workload starts after a CHECKPOINT (the pages the one before
 *    dirtied are written out before, not evicted during, the next: the batch workload leaves ~70,000 new
 *    rows) and, like its warm-up, once the server has worked off the requests still in flight (untilQuiet).
 * 4. Recall and wrong answers of the fuzzy workload, checked one by one over HTTP; resident memory.
 *
 * BENCH_DATA_DIR reuses a loaded directory (skips step 1's load when it already holds the bank, and
 * vacuums the bank unless it was already).
 * BENCH_ROUNDS=N (default 1) runs the workloads N times in turn and reports their means, and each
 * round's ratios against that round's raw lookup.
 * BENCH_WORKLOADS=health,raw,exact,batch,fuzzy,miss picks workloads (default all); BENCH_NODE_ARGS adds node
 * flags to the server (a CPU profile of the whole run: --cpu-prof --cpu-prof-dir=DIR); BENCH_PROFILE_DIR=DIR
 * writes a CPU profile of the server's main thread for each measured workload alone (KEY.cpuprofile).
 * BENCH_TARGETS=pglite,postgres runs both, one after the other, when a URL is set (default: the
 * URL's PostgreSQL when set, else PGlite). Every figure is a ratio against /api/health and against the
 * raw hash lookup measured in the same run, on the same database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type WorkerStats } from '../../server/db/database';
import { prepareQuestion, type PreparedQuestion } from '../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../server/modules/ocs/bank/store';
import { normalizeTitle, titleHash } from '../../server/modules/ocs/bank/normalize';
import { writeSettings } from '../../server/modules/ocs/admin/settings';
import { credit } from '../../server/modules/ocs/wallet/balance';
import { createUser } from '../../server/modules/user/service';
import { createToken } from '../../server/modules/user/tokens';
import { spawnServer } from '../../tests/server/process';
import { parseQuestion } from '../../server/modules/ocs/query/question';
import { cpuTicks, idleShare } from '../lib/machine';
import { expectedAnswer } from './quality';
import { cpuOf, untilFuzzyIndexLoaded, untilQuiet } from '../lib/latency';
import { buildPerturbationSet, generateQuestions, toOcsOptions, type SyntheticQuestion } from './synthetic';
import { toOcsAnswer } from '../../src/contract';

const N = Number(process.env.BENCH_QUESTIONS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Passes over the workloads: this machine's speed drifts over minutes, and interleaved rounds show how much. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/**
 * Callers, each with its own token: requests take them in turn. The per-token limit (at most 1,000
 * requests a second, the settings' maximum) would otherwise refuse most of a load from one token,
 * and a refusal is cheap: it would be measured as a fast answer. Default: one per connection, and at
 * least the 16 a round of the fuzzy workload takes (its warm-up and its run, 8 new users per question each).
 */
const USERS = Math.max(1, Number(process.env.BENCH_USERS ?? Math.max(CONNECTIONS, 16 * ROUNDS)));
const SEED = 20261122;
/** Questions per request of the batch workload (the API's maximum). */
const BATCH = 100;
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;

type Target = 'pglite' | 'postgres';

interface Load {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time of the server process (its threads, the PGlite worker included) per request, ms. */
  cpuMs: number;
  /** CPU time of this process (autocannon, the client) per request, ms. */
  clientMs: number;
  /** The share of all CPUs' time that was idle over the workload (null off Linux). */
  idle: number | null;
  /** Questions each request carries (100 for the batch workload). */
  perRequest: number;
  /** The database side of the workload, per request (busyMs: the worker's busy share of the time). */
  db: DbStats;
  /** What the answers said, per question: answered (code 1), refused as too fast, anything else. */
  answers: AnswerCounts;
}

interface AnswerCounts {
  answered: number;
  tooFast: number;
  other: number;
}

/** Counts an OCS answer body (one question, or a batch's results); other bodies are not counted. */
function countAnswer(into: AnswerCounts, body: string): void {
  if (!body.startsWith('{"code"')) return;
  const r = JSON.parse(body) as { code: number; msg?: string; results?: Array<{ code: number; msg?: string }> };
  for (const one of r.results ?? [r]) {
    if (one.code === 1) into.answered++;
    else if (one.msg === TOO_FAST) into.tooFast++;
    else into.other++;
  }
}
const TOO_FAST = '请求过快，请稍后再试';

/** A process.cpuUsage() difference (user + system, µs) in ms. */
function cpuMsOf(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1000;
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
}

async function load(
  target: Target,
  dataDir: string,
): Promise<{ tokens: string[]; seconds: number; sample: SyntheticQuestion[] }> {
  const database = await openDatabase(
    target === 'postgres' ? { url: PG_URL } : { pgDataDir: path.join(dataDir, 'pgdata') },
  );
  const sample: SyntheticQuestion[] = [];
  let seconds = 0;
  try {
    await migrateToLatest(database.db);
    const have = Number(
      (await sql<{ n: number }>`select count(*) as n from ocs_questions`.execute(database.db)).rows[0]!.n,
    );
    const t0 = performance.now();
    let batch: PreparedQuestion[] = [];
    let i = 0;
    for (const q of generateQuestions(N, SEED)) {
      // Every 20th question is kept to build the query workloads.
      if (i++ % 20 === 0) sample.push(q);
      if (have >= N) continue;
      const p = prepareQuestion(q);
      if ('error' in p) throw new Error(`generated question rejected: ${p.error}`);
      batch.push(p);
      if (batch.length === 10_000) {
        await upsertQuestions(database.db, batch, 'import');
        batch = [];
        if (i % 100_000 === 0) process.stdout.write(`  loaded ${i.toLocaleString()}\n`);
      }
    }
    if (batch.length) await upsertQuestions(database.db, batch, 'import');
    seconds = (performance.now() - t0) / 1000;
    if (have >= N) seconds = 0;
    // The state a server leaves a bank in after an import (the maintenance job, or autovacuum, runs
    // `vacuum (analyze)` on it): unvacuumed, each workload's first reads of a page would also write it
    // (hint bits), and the raw lookup, which comes first, would pay for the exact hits after it.
    const vis = (
      await sql<{ pages: number; visible: number }>`select relpages as pages, relallvisible as visible
        from pg_class where oid = 'ocs_questions'::regclass`.execute(database.db)
    ).rows[0]!;
    if (have < N || vis.pages === 0 || vis.visible < vis.pages * 0.9) {
      await sql`vacuum (analyze) ocs_questions`.execute(database.db);
    }
    const tokens: string[] = [];
    const stamp = Date.now() % 1e8;
    for (let u = 0; u < USERS; u++) {
      const user = await createUser(database.db, { username: `bench${stamp}u${u}`, password: 'bench-password-123' });
      tokens.push(
        (await createToken(database.db, user.id, { name: 'bench', scopes: ['ocs:query'], expiresInDays: null })).token,
      );
      await credit(database.db, user.id, 'topup', 1_000_000_000, 'bench');
    }
    // The per-token limit (10/s by default) would stop a load test at once: the settings' maximum.
    await writeSettings(database.db, { ratePerSecond: 1000, rateBurst: 10_000 });
    return { tokens, seconds, sample };
  } finally {
    await database.close();
  }
}

/** GET /bench/db-stats: the worker's counters and the WAL position (bytes since 0/0). */
type DbStats = WorkerStats & { walBytes: number };

async function dbStats(url: string): Promise<DbStats> {
  return (await (await fetch(`${url}/bench/db-stats`)).json()) as DbStats;
}

/** The batch workload's requests: each call the next body and the token to send it with. */
interface BatchLoad {
  next: () => { body: string; token: string };
  perRequest: number;
}

/** One workload: GET paths, or (with `batch`) POST the bodies it gives to the one path. */
async function cannon(
  url: string,
  pid: number,
  name: string,
  paths: string[],
  duration: number,
  batch?: BatchLoad,
): Promise<Load> {
  let i = 0;
  const answers: AnswerCounts = { answered: 0, tooFast: 0, other: 0 };
  const db0 = await dbStats(url);
  const t0 = performance.now();
  const cpu0 = cpuOf(pid);
  const client0 = process.cpuUsage();
  const machine0 = cpuTicks();
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [
      batch
        ? {
            method: 'POST',
            setupRequest: (req) => {
              const { body, token } = batch.next();
              return {
                ...req,
                path: paths[0]!,
                headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
                body,
              };
            },
            onResponse: (_status, body) => countAnswer(answers, body),
          }
        : {
            method: 'GET',
            setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }),
            onResponse: (_status, body) => countAnswer(answers, body),
          },
    ],
  });
  const requests = Math.max(1, r.requests.total);
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpuMs: (cpuOf(pid) - cpu0) / requests,
    clientMs: cpuMsOf(process.cpuUsage(client0)) / requests,
    idle: idleShare(machine0, cpuTicks()),
    perRequest: batch?.perRequest ?? 1,
    db: await dbDelta(url, db0, (performance.now() - t0) / 1000, requests),
    answers,
  };
}

/** What the database did per request over a workload (the worker's busy share: of its wall time). */
async function dbDelta(url: string, before: DbStats, seconds: number, requests: number): Promise<DbStats> {
  const after = await dbStats(url);
  const per = (k: Exclude<keyof DbStats, 'slowest' | 'busiest'>) => (after[k] - before[k]) / requests;
  return {
    fsyncs: per('fsyncs'),
    syncFlushes: per('syncFlushes'),
    flushMs: per('flushMs'),
    dataWrites: per('dataWrites'),
    busyMs: (after.busyMs - before.busyMs) / 1000 / seconds,
    walBytes: per('walBytes'),
    // The longest statement of the workload (the stats call before it reset the worker's record).
    slowest: after.slowest,
    // The statements the worker spent most time on over the workload, per request.
    busiest: after.busiest.map((b) => ({ sql: b.sql, count: b.count / requests, ms: b.ms / requests })),
  };
}

/** The mean of one workload's rounds (the slowest statement: the slowest of any round). */
function meanOf(rounds: Load[]): Load {
  const mean = (f: (l: Load) => number) => rounds.reduce((sum, l) => sum + f(l), 0) / rounds.length;
  const slowest = rounds.map((l) => l.db.slowest).reduce((a, b) => (b.ms > a.ms ? b : a));
  return {
    name: rounds[0]!.name,
    rps: mean((l) => l.rps),
    p50: Math.round(mean((l) => l.p50)),
    p99: Math.round(mean((l) => l.p99)),
    errors: rounds.reduce((sum, l) => sum + l.errors, 0),
    non2xx: rounds.reduce((sum, l) => sum + l.non2xx, 0),
    cpuMs: mean((l) => l.cpuMs),
    clientMs: mean((l) => l.clientMs),
    idle: rounds.some((l) => l.idle === null) ? null : mean((l) => l.idle!),
    perRequest: rounds[0]!.perRequest,
    answers: {
      answered: rounds.reduce((sum, l) => sum + l.answers.answered, 0),
      tooFast: rounds.reduce((sum, l) => sum + l.answers.tooFast, 0),
      other: rounds.reduce((sum, l) => sum + l.answers.other, 0),
    },
    db: {
      fsyncs: mean((l) => l.db.fsyncs),
      syncFlushes: mean((l) => l.db.syncFlushes),
      flushMs: mean((l) => l.db.flushMs),
      dataWrites: mean((l) => l.db.dataWrites),
      busyMs: mean((l) => l.db.busyMs),
      walBytes: mean((l) => l.db.walBytes),
      slowest,
      busiest: busiestOf(rounds),
    },
  };
}

/** The busiest statements of a workload's rounds: per request, averaged over the rounds (3 at most). */
function busiestOf(rounds: Load[]): DbStats['busiest'] {
  const bySql = new Map<string, { sql: string; count: number; ms: number }>();
  for (const l of rounds) {
    for (const b of l.db.busiest) {
      const e = bySql.get(b.sql) ?? { sql: b.sql, count: 0, ms: 0 };
      e.count += b.count / rounds.length;
      e.ms += b.ms / rounds.length;
      bySql.set(b.sql, e);
    }
  }
  return [...bySql.values()].sort((a, b) => b.ms - a.ms).slice(0, 3);
}

/** A statement's text on one line, cut to `max` characters. */
const oneLine = (text: string, max: number) => text.replace(/\s+/g, ' ').trim().slice(0, max);

/** Shares of the questions answered, refused as too fast, and not answered otherwise ('—': not OCS). */
function answerShare(a: AnswerCounts): string {
  const total = a.answered + a.tooFast + a.other;
  if (total === 0) return '—';
  const pct = (n: number) => `${((100 * n) / total).toFixed(n === 0 || n === total ? 0 : 1)}%`;
  return `${pct(a.answered)} / ${pct(a.tooFast)} / ${pct(a.other)}`;
}

/**
 * The items whose question has a query key (the server's: normalized title, type, options) no item
 * before had: two with one key would be one question asked twice, the second a free repeat.
 */
function distinctKeys<T>(items: T[], question: (x: T) => { title: string; type: string; options: string }): T[] {
  const seen = new Set<string>();
  return items.filter((x) => {
    const q = parseQuestion(question(x));
    if (typeof q === 'string') return true; // refused by the server: never a repeat
    if (seen.has(q.key)) return false;
    seen.add(q.key);
    return true;
  });
}

function queryPath(token: string, title: string, type: string, options: string[]): string {
  return `/api/ocs/query?${new URLSearchParams({ token, title, type, options: options.join('\n') })}`;
}

async function bench(target: Target): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-ocs-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const where = target === 'postgres' ? `PostgreSQL ${new URL(PG_URL!).pathname.slice(1) || '(default)'}` : dataDir;
  console.log(`OCS bench: ${N.toLocaleString()} questions on ${target} (${where})`);
  const { tokens, seconds, sample } = await load(target, dataDir);
  const tokenOf = (k: number) => tokens[k % tokens.length]!;
  console.log(
    seconds
      ? `load: ${seconds.toFixed(1)} s (${Math.round(N / seconds).toLocaleString()} questions/s)`
      : 'load: reused',
  );

  const t0 = performance.now();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench-admin-password',
    UMS_WORKER: 'false',
    // Empty means unset: the embedded target must not inherit a DATABASE_URL from this shell.
    DATABASE_URL: target === 'postgres' ? PG_URL! : '',
    ...(process.env.BENCH_PROFILE_DIR ? { BENCH_PROFILE_DIR: path.join(process.env.BENCH_PROFILE_DIR, target) } : {}),
  };
  if (target === 'postgres') env.PORTAL_SECRET = process.env.PORTAL_SECRET ?? 'bench-portal-secret-0123456789abcdef';
  // BENCH_NODE_ARGS: extra node flags for the server (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawnServer(env, [...nodeArgs, '--import', 'tsx', path.join(__dirname, 'server.ts')]);
  const { url, proc } = await server.ready;
  const listenSeconds = (performance.now() - t0) / 1000;
  // The fuzzy index loads in the background after listening.
  await untilFuzzyIndexLoaded(server);
  const startSeconds = (performance.now() - t0) / 1000;
  proc.stdout!.removeAllListeners('data');
  proc.stdout!.resume();
  const rssStart = rssOf(proc.pid!);
  try {
    // Half the sample for exact hits, the other half for the batch workload and the perturbed hits.
    const half = Math.floor(sample.length / 2);
    const asked = (q: SyntheticQuestion) => ({ ...q, options: toOcsOptions(q.options).join('\n') });
    // Each with a query key of its own (the bank has some questions twice: one would be a free repeat).
    const exactAsks = distinctKeys(sample.slice(0, half), asked).map(
      (q) => (token: string) => queryPath(token, q.title, q.type, toOcsOptions(q.options)),
    );
    const pool = sample.slice(half);
    // Every answer of a charged workload is paid: a user's repeat within 10 minutes is free (the query
    // cache) and would measure a cheaper path. So each run of such a workload (its warm-up too) asks
    // each question as users that have not asked it yet: pass p asks question k as users
    // k + shifts·p + s (s < shifts). Passes stay apart while shifts·passes ≤ BENCH_USERS, and a pass
    // (shifts × the questions: ~50,000 requests or more) is more than a run sends on this machine.
    const freshPasses = (key: string, asks: Array<(token: string) => string>, shifts: number) => {
      let p = 0;
      return () => {
        if (shifts * (p + 1) > tokens.length) {
          console.warn(`${key} pass ${p + 1}: more passes than BENCH_USERS allows; some answers are free repeats`);
        }
        const out: string[] = [];
        for (let s = 0; s < shifts; s++) asks.forEach((ask, k) => out.push(ask(tokenOf(k + shifts * p + s))));
        p++;
        return out;
      };
    };
    // Other questions of the bank, 100 to a request, as the userscript sends an exam page. The bench's
    // j-th batch request sends body j mod B as user (j mod B) + ⌊j / B⌋: no user asks a question twice
    // in the first B · BENCH_USERS requests (6,250 with the defaults; a round sends ~2,000).
    const batchBodies: string[] = [];
    // Not the questions the fuzzy load perturbs: a cut-off title can normalize to its original's key.
    const batchPool = distinctKeys(pool.slice(Math.floor(pool.length / 2)), asked);
    for (let k = 0; k + BATCH <= batchPool.length; k += BATCH) {
      const questions = batchPool
        .slice(k, k + BATCH)
        .map((q) => ({ title: q.title, type: q.type, options: toOcsOptions(q.options).join('\n') }));
      batchBodies.push(JSON.stringify({ questions }));
    }
    let batchSent = 0;
    const batch: BatchLoad = {
      perRequest: BATCH,
      next: () => {
        const j = batchSent++;
        if (j === batchBodies.length * tokens.length) {
          console.warn('batch: more requests than BENCH_USERS allows; some answers are free repeats');
        }
        const b = j % batchBodies.length;
        return { body: batchBodies[b]!, token: tokenOf(b + Math.floor(j / batchBodies.length)) };
      },
    };
    // Recall is checked on fuzzySet; the load asks a larger set (~6,000) of the same kinds, 8 users each,
    // made from the first half of the pool (the batch workload asks the second).
    const perturbed = (from: SyntheticQuestion[], perKind: number, seed: number) =>
      buildPerturbationSet(from, Math.min(perKind, Math.floor(from.length / 4)), seed).filter(
        (x) => x.kind === 'truncate' || x.kind === 'typo',
      );
    const fuzzySet = perturbed(pool, 600, 3);
    const fuzzyAsks = distinctKeys(perturbed(pool.slice(0, Math.floor(pool.length / 2)), 3_125, 11), (x) => ({
      ...x.query,
      options: x.query.options.join('\n'),
    })).map((x) => (token: string) => queryPath(token, x.query.title, x.query.type, x.query.options));
    // Each call: the requests of one run, warm-up or measured (see freshPasses).
    const exactRuns = freshPasses('exact', exactAsks, 3);
    const fuzzyRuns = freshPasses('fuzzy', fuzzyAsks, 8);
    const missSet = buildPerturbationSet(pool, Math.min(300, Math.floor(pool.length / 8)), 4).filter(
      (x) => x.query.expect === 'miss',
    );
    const miss = missSet.map((x, k) => queryPath(tokenOf(k), x.query.title, x.query.type, x.query.options));
    const raw = sample.map((q) => `/api/bench/raw-lookup?h=${titleHash(normalizeTitle(q.title))}`);

    // Recall and wrong answers of the fuzzy and miss workloads, one request at a time.
    let right = 0;
    let wrong = 0;
    let none = 0;
    const checkQuality = (process.env.BENCH_WORKLOADS ?? 'fuzzy').split(',').some((w) => w === 'fuzzy' || w === 'miss');
    for (const x of checkQuality ? [...fuzzySet, ...missSet] : []) {
      const res = (await (
        await fetch(url + queryPath(tokens[0]!, x.query.title, x.query.type, x.query.options))
      ).json()) as {
        code: number;
        answer?: string;
      };
      const want = expectedAnswer(x.source, x.query);
      if (res.code !== 1) {
        if (want === null) right++;
        else none++;
      } else if (want !== null && res.answer === toOcsAnswer(want)) right++;
      else wrong++;
    }

    const picked = (process.env.BENCH_WORKLOADS ?? 'health,raw,exact,batch,fuzzy,miss').split(',');
    /** Each workload's loads, one per round. */
    const byRound = new Map<string, Load[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [key, name, run, withBodies] of [
        ['health', 'GET /api/health', () => ['/api/health']],
        ['raw', 'raw lookup by hash (probe)', () => raw],
        ['exact', 'exact hits (token, lookup, charge)', exactRuns],
        ['batch', `exact hits, ${BATCH} per POST /api/ocs/query/batch`, () => ['/api/ocs/query/batch'], batch],
        ['fuzzy', 'perturbed hits (fuzzy)', fuzzyRuns],
        ['miss', 'misses', () => miss],
      ] as Array<[string, string, () => string[], BatchLoad | undefined]>) {
        if (!picked.includes(key)) continue;
        if (withBodies && batchBodies.length === 0) continue;
        await untilQuiet(proc.pid!);
        await fetch(`${url}/bench/checkpoint`, { method: 'POST' });
        await cannon(url, proc.pid!, name, run(), 2, withBodies); // warm-up
        await untilQuiet(proc.pid!);
        const profile = ROUNDS > 1 ? `${key}-${round}` : key;
        if (process.env.BENCH_PROFILE_DIR) await fetch(`${url}/bench/profile/start`, { method: 'POST' });
        const load = await cannon(url, proc.pid!, name, run(), SECONDS, withBodies);
        if (process.env.BENCH_PROFILE_DIR) await fetch(`${url}/bench/profile/stop?name=${profile}`, { method: 'POST' });
        byRound.set(name, [...(byRound.get(name) ?? []), load]);
      }
    }
    const loads = [...byRound.values()].map(meanOf);
    const rssEnd = rssOf(proc.pid!);
    const health = loads.find((l) => l.name === 'GET /api/health');
    const rawLoad = loads.find((l) => l.name.startsWith('raw lookup'));
    const ratio = (l: Load, base: Load | undefined, digits: number) =>
      base ? (l.rps / base.rps).toFixed(digits) : '—';
    const exactLoad = loads.find((l) => l.name.startsWith('exact hits (token'));
    const batchLoad = loads.find((l) => l.perRequest > 1);
    const qps = (l: Load) => l.rps * l.perRequest;
    console.log(
      [
        '',
        `OCS query bench (${target}) — ${N.toLocaleString()} questions, ${CONNECTIONS} connections, ${SECONDS} s per workload, ${os.cpus().length} CPUs`,
        `server listening after ${listenSeconds.toFixed(1)} s, fuzzy index loaded after ${startSeconds.toFixed(1)} s; RSS after start ${(rssStart / 2 ** 20).toFixed(0)} MiB, after the loads ${(rssEnd / 2 ** 20).toFixed(0)} MiB`,
        !checkQuality
          ? 'fuzzy + miss correctness: not measured (BENCH_WORKLOADS)'
          : `fuzzy + miss correctness over HTTP: ${fuzzySet.length} perturbed hits + ${missSet.length} near misses → right ${right}, wrong ${wrong}, no answer ${none}` +
            ` (fuzzy recall ${((100 * (fuzzySet.length - none)) / Math.max(1, fuzzySet.length)).toFixed(1)}%)`,
        '',
        '| workload | req/s | questions/s | p50 ms | p99 ms | ÷ health | ÷ raw lookup | server CPU ms/req | client CPU ms/req | CPUs idle | errors/non-2xx | answered / too fast / other |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...loads.map(
          (l) =>
            `| ${l.name} | ${Math.round(l.rps)} | ${Math.round(qps(l))} | ${l.p50} | ${l.p99} | ${ratio(l, health, 3)} | ${ratio(l, rawLoad, 2)} | ${l.cpuMs.toFixed(2)} | ${l.clientMs.toFixed(2)} | ${l.idle === null ? '—' : `${(100 * l.idle).toFixed(0)}%`} | ${l.errors}/${l.non2xx} | ${answerShare(l.answers)} |`,
        ),
        '',
        'CPUs idle: the share of all CPUs that stayed idle over the workload. Well above 0, the load was held back by waiting (the charge batches, the flushes, the event loops), not by the CPUs: less CPU per request then moves throughput less than in proportion.',
        '',
        '| workload | worker busy | WAL KiB/req | flushes/req | of which waited for | ms per flush | data-file writes/req | slowest statement |',
        '|---|---|---|---|---|---|---|---|',
        ...loads.map(
          (l) =>
            `| ${l.name} | ${(100 * l.db.busyMs).toFixed(0)}% | ${(l.db.walBytes / 1024).toFixed(1)} | ${l.db.fsyncs.toFixed(3)} | ${l.db.syncFlushes.toFixed(3)} | ${l.db.fsyncs > 0 ? (l.db.flushMs / l.db.fsyncs).toFixed(2) : '—'} | ${l.db.dataWrites.toFixed(2)} | ${l.db.slowest.ms.toFixed(0)} ms: ${oneLine(l.db.slowest.sql, 60)} |`,
        ),
        '',
        'ms per flush: how long the disk took to make one flush durable (fdatasync), in this workload. An answer whose statement wrote waits for one after the statement has run.',
        '',
        "Where the worker's time went: the three statements it spent most on, ms per request (statements per request):",
        ...loads.map(
          (l) =>
            `- ${l.name}: ${l.db.busiest.map((b) => `${b.ms.toFixed(3)} ms (${b.count.toFixed(2)}×) ${oneLine(b.sql, 50)}`).join(' · ') || '—'}`,
        ),
        ...(ROUNDS > 1 && rawLoad
          ? [
              '',
              `The rows above are the means of ${ROUNDS} rounds, taken in turn. Each round on its own, ÷ that round's raw lookup (throughput; p99 latency):`,
              ...[...byRound.entries()].map(([name, rounds]) => {
                const raws = byRound.get(rawLoad.name)!;
                const each = rounds.map(
                  (l, i) => `${(l.rps / raws[i]!.rps).toFixed(2)} (p99 ${(l.p99 / raws[i]!.p99).toFixed(1)}×)`,
                );
                return `- ${name}: ${each.join(' · ')}`;
              }),
            ]
          : []),
        ...(exactLoad && batchLoad
          ? [
              '',
              `batch throughput: ${Math.round(qps(batchLoad))} questions/s in batches of ${BATCH} against ${Math.round(qps(exactLoad))} questions/s one query at a time: ${(qps(batchLoad) / qps(exactLoad)).toFixed(2)}× (same run)`,
            ]
          : []),
      ].join('\n'),
    );
  } finally {
    proc.kill('SIGTERM');
    await server.exited;
    if (!process.env.BENCH_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const targets = (process.env.BENCH_TARGETS ?? (PG_URL ? 'postgres' : 'pglite'))
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of targets) {
    if (t !== 'pglite' && t !== 'postgres') throw new Error(`BENCH_TARGETS: unknown target ${t}`);
    if (t === 'postgres' && !PG_URL) throw new Error('BENCH_TARGETS has postgres but no BENCH_DATABASE_URL is set');
  }
  for (const t of targets as Target[]) await bench(t);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
