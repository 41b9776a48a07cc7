/**
 * `npm run bench:soak`: a bounded soak of two instances on one PostgreSQL, with the traffic an
 * institution's portal sees at once: logins, OCS queries (bank hits and misses), UMS sends and NJIT
 * searches, spread over both instances by a pool of concurrent clients.
 *
 * It reports, per kind of request: count, error rate (5xx, network errors and unexpected statuses;
 * target 0), p50 and p99; each instance's resident memory over the run with the trend of its second
 * half (MB per minute; a leak shows as a steady climb); and, at the end, the invariants: every OCS
 * wallet equals the sum of its ledger, and every UMS message accepted was delivered exactly once.
 *
 * Needs a throwaway PostgreSQL: `npm run bench:soak` starts one (.ci/postgres.sh). BENCH_SOAK_SECONDS
 * (default 600), BENCH_SOAK_CLIENTS (default 16) and BENCH_SOAK_USERS (default 20) size the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { FakeDingTalk } from '../../tests/fixtures/fake-dingtalk';
import { spawnServer, type ServerProcess } from '../../tests/server/process';
import sampleBank from '../../server/modules/ocs/bank/sample-bank.json';
import { mulberry32 } from '../lib/random';
import { syntheticCsv, syntheticStudents } from '../njit/synthetic';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 16);
const USERS = Number(process.env.BENCH_SOAK_USERS ?? 20);
const ADMIN_PASSWORD = 'soak-admin-password';
const USER_PASSWORD = 'soak-user-password';
const base = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;

type Kind = 'login' | 'ocs hit' | 'ocs miss' | 'ums send' | 'njit search' | 'page data';
/** How often each kind is picked (relative weights). */
const MIX: [Kind, number][] = [
  ['ocs hit', 40],
  ['ocs miss', 10],
  ['ums send', 15],
  ['njit search', 15],
  ['page data', 15],
  ['login', 5],
];

interface Sample {
  title: string;
  type: string;
  options?: string[];
}
const questions = (sampleBank as { questions: Sample[] }).questions;
const LETTERS = 'ABCDEFGH';

interface Actor {
  username: string;
  cookie: string;
  uid: number;
  ocsToken: string;
  umsToken: string;
}

class Stats {
  private latencies = new Map<Kind, number[]>();
  private errors = new Map<Kind, string[]>();
  private limited = new Map<Kind, number>();
  record(kind: Kind, ms: number, problem: string | null, rateLimited = false) {
    if (!this.latencies.has(kind)) this.latencies.set(kind, []);
    this.latencies.get(kind)!.push(ms);
    if (rateLimited) this.limited.set(kind, (this.limited.get(kind) ?? 0) + 1);
    if (problem) {
      if (!this.errors.has(kind)) this.errors.set(kind, []);
      this.errors.get(kind)!.push(problem);
    }
  }
  rows(): string[] {
    const out: string[] = [];
    for (const [kind] of MIX) {
      const l = (this.latencies.get(kind) ?? []).slice().sort((x, y) => x - y);
      const errs = this.errors.get(kind) ?? [];
      const q = (p: number) => (l.length ? l[Math.min(l.length - 1, Math.floor(p * l.length))]!.toFixed(1) : '-');
      out.push(
        `| ${kind} | ${l.length} | ${errs.length} (${l.length ? ((100 * errs.length) / l.length).toFixed(3) : '0'} %) | ${this.limited.get(kind) ?? 0} | ${q(0.5)} | ${q(0.99)} |`,
      );
    }
    return out;
  }
  get totalErrors(): number {
    return [...this.errors.values()].reduce((n, e) => n + e.length, 0);
  }
  firstErrors(n: number): string[] {
    return [...this.errors.entries()].flatMap(([k, e]) => e.slice(0, n).map((x) => `${k}: ${x}`)).slice(0, n);
  }
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** Least-squares slope of (t minutes, y) pairs. */
function slope(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const num = points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0);
  const den = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  return den ? num / den : 0;
}

async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text.slice(0, 200) };
  }
}

async function api(server: ServerProcess, method: string, path: string, cookie: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, body: await json(res) };
}

const sessionCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('portal_sid='))
    .join('; ');

async function main() {
  if (!base) throw new Error('needs a PostgreSQL: run `npm run bench:soak` (it starts a throwaway one)');
  const dbName = `portal_soak_${process.pid}`;
  const root = new pg.Client({ connectionString: base });
  await root.connect();
  await root.query(`drop database if exists ${dbName}`);
  await root.query(`create database ${dbName}`);
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  const url = u.toString();

  const fake = await new FakeDingTalk().start();
  const env = {
    DATABASE_URL: url,
    PORTAL_SECRET: 'soak-portal-secret-0123456789abcdef',
    ADMIN_PASSWORD,
    UMS_WEBHOOK_ALLOWLIST: `${fake.url}/robot/send`,
    UMS_ROBOT_PER_MINUTE: '0',
    UMS_TOKEN_PER_MINUTE: '100000',
    UMS_TOKEN_BURST: '0',
    UMS_USER_PER_MINUTE: '0',
    NJIT_QUERY_RATE_LIMIT: '0',
    REGISTER_RATE_LIMIT: '0',
    UI_DIR: '/nonexistent-ui',
  };
  const spawned = [spawnServer(env), spawnServer(env)];
  const servers = await Promise.all(spawned.map((s) => s.ready));
  for (const s of spawned) {
    // The bench keeps no log lines in memory.
    s.proc.stdout!.removeAllListeners('data');
    s.proc.stdout!.resume();
  }
  const [a, b] = servers as [ServerProcess, ServerProcess];
  const pick = (i: number) => servers[i % 2]!;
  console.log(`soak: 2 instances (${a.url}, ${b.url}) on PostgreSQL ${dbName}, ${CLIENTS} clients, ${SECONDS} s`);

  try {
    // --- setup: an administrator with njit, the sample bank, a roster, users with tokens and channels ---
    const login = await fetch(`${a.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const adminCookie = sessionCookie(login);
    const adminUid = (await json(login)).data.uid as number;
    await api(a, 'PATCH', `/api/user/admin/users/${adminUid}`, adminCookie, { roles: ['admin', 'njit'] });
    await api(a, 'PUT', '/api/ocs/admin/settings', adminCookie, {
      bankPrice: 1,
      freeDaily: 10,
      fuzzyThreshold: 0.5,
      ratePerSecond: 1000,
      rateBurst: 1000,
    });
    const sample = await api(a, 'POST', '/api/ocs/admin/bank/sample', adminCookie);
    if (!sample.body.success) throw new Error(`sample bank: ${JSON.stringify(sample.body)}`);
    const students = syntheticStudents(5_000, { seed: 7 });
    const form = new FormData();
    form.append('file', new Blob([syntheticCsv(students)], { type: 'text/csv' }), 'soak.csv');
    const up = await json(
      await fetch(`${a.url}/api/njit/imports`, { method: 'POST', headers: { cookie: adminCookie }, body: form }),
    );
    await api(a, 'POST', `/api/njit/imports/${up.data.importId}/commit`, adminCookie, {});

    const actors: Actor[] = [];
    for (let i = 0; i < USERS; i++) {
      const username = `soak${process.pid % 10000}_${i}`;
      const reg = await fetch(`${pick(i).url}/api/user/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: USER_PASSWORD }),
      });
      const cookie = sessionCookie(reg);
      const uid = (await json(reg)).data.uid as number;
      await api(a, 'POST', `/api/ocs/admin/users/${uid}/adjust`, adminCookie, { amount: 100_000, reason: '压测' });
      const ocs = await api(a, 'POST', '/api/user/tokens', cookie, {
        name: 'ocs',
        scopes: ['ocs:query'],
        expiresInDays: null,
      });
      const ums = await api(a, 'POST', '/api/user/tokens', cookie, {
        name: 'ums',
        scopes: ['ums:send'],
        expiresInDays: null,
      });
      await api(a, 'POST', '/api/ums/channels', cookie, {
        name: '压测',
        webhook: fake.robot(`soak${i}`, { perMinute: 0 }),
      });
      actors.push({ username, cookie, uid, ocsToken: ocs.body.data.token, umsToken: ums.body.data.token });
    }
    // The njit searcher is the administrator (who has the role).
    const njitCookie = adminCookie;

    // --- traffic ---
    const stats = new Stats();
    const memory: Record<string, [number, number][]> = { a: [], b: [] };
    const t0 = Date.now();
    const deadline = t0 + SECONDS * 1000;
    const totalWeight = MIX.reduce((s, [, w]) => s + w, 0);
    let sent = 0;

    const sampler = setInterval(() => {
      const minutes = (Date.now() - t0) / 60_000;
      memory.a!.push([minutes, rssMb(a.proc.pid!)]);
      memory.b!.push([minutes, rssMb(b.proc.pid!)]);
    }, 5_000);
    memory.a!.push([0, rssMb(a.proc.pid!)]);
    memory.b!.push([0, rssMb(b.proc.pid!)]);

    const client = async (c: number) => {
      const random = mulberry32(1000 + c);
      while (Date.now() < deadline) {
        let r = random() * totalWeight;
        const kind = MIX.find(([, w]) => (r -= w) < 0)![0];
        const server = pick(Math.floor(random() * 2));
        const actor = actors[Math.floor(random() * actors.length)]!;
        const started = performance.now();
        let problem: string | null = null;
        let limited = false;
        try {
          if (kind === 'ocs hit' || kind === 'ocs miss') {
            const q =
              kind === 'ocs hit'
                ? questions[Math.floor(random() * questions.length)]!
                : {
                    title: `压测：题库里没有的题 ${Math.floor(random() * 1e9)}`,
                    type: 'single',
                    options: ['甲', '乙'],
                  };
            const params = new URLSearchParams({ token: actor.ocsToken, title: q.title, type: q.type });
            if (q.options?.length) params.set('options', q.options.map((o, i) => `${LETTERS[i]}. ${o}`).join('\n'));
            const res = await fetch(`${server.url}/api/ocs/query?${params}`);
            const body = await json(res);
            if (res.status !== 200) problem = `HTTP ${res.status}`;
            else if (kind === 'ocs hit' && body.code !== 1) problem = `no answer: ${body.msg}`;
            else if (kind === 'ocs miss' && body.code !== 0) problem = `answered a miss`;
            limited = /请求过快/.test(body.msg ?? '');
          } else if (kind === 'ums send') {
            const res = await fetch(`${server.url}/api/ums/send`, {
              method: 'POST',
              headers: { authorization: `Bearer ${actor.umsToken}`, 'content-type': 'application/json' },
              body: JSON.stringify({ title: '压测', content: `压测消息 ${c}-${sent}` }),
            });
            await res.arrayBuffer();
            if (res.status === 429) limited = true;
            else if (res.status !== 200) problem = `HTTP ${res.status}`;
          } else if (kind === 'njit search') {
            const s = students[Math.floor(random() * students.length)]!;
            const query = random() < 0.5 ? { studentNo: s.学号.slice(0, 8) } : { college: s.学院, grade: s.年级 };
            const { res } = await api(
              server,
              'GET',
              `/api/njit/students?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
              njitCookie,
            );
            if (res.status !== 200) problem = `HTTP ${res.status}`;
          } else if (kind === 'page data') {
            const path = ['/api/ocs/overview', '/api/ums/stats', '/api/user/me', '/api/ocs/ledger?pageSize=10'][
              Math.floor(random() * 4)
            ]!;
            const { res } = await api(server, 'GET', path, actor.cookie);
            if (res.status !== 200) problem = `${path} HTTP ${res.status}`;
          } else {
            const res = await fetch(`${server.url}/api/user/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ username: actor.username, password: USER_PASSWORD }),
            });
            await res.arrayBuffer();
            if (res.status !== 200) problem = `HTTP ${res.status}`;
          }
        } catch (err) {
          problem = `network: ${(err as Error).message}`;
        }
        sent++;
        stats.record(kind, performance.now() - started, problem, limited);
      }
    };
    const progress = setInterval(() => {
      const s = Math.round((Date.now() - t0) / 1000);
      console.log(
        `  ${s} s: ${sent} requests, ${stats.totalErrors} errors, RSS a ${rssMb(a.proc.pid!).toFixed(0)} MB, b ${rssMb(b.proc.pid!).toFixed(0)} MB`,
      );
    }, 60_000);
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    clearInterval(sampler);
    clearInterval(progress);
    const elapsed = (Date.now() - t0) / 1000;

    // --- invariants ---
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const wallets = await db.query(`
      select w.user_id, w.balance, coalesce(sum(l.amount), 0)::bigint as ledger
        from ocs_wallets w left join ocs_ledger l on l.user_id = w.user_id
       group by w.user_id, w.balance
      having w.balance <> coalesce(sum(l.amount), 0)`);
    const waitDelivered = async () => {
      const until = Date.now() + 120_000;
      for (;;) {
        const r = await db.query(
          `select count(*) filter (where status = 'delivered')::int as delivered, count(*)::int as total from ums_messages`,
        );
        const { delivered, total } = r.rows[0] as { delivered: number; total: number };
        if (delivered === total || Date.now() > until) return { delivered, total };
        await new Promise((res) => setTimeout(res, 500));
      }
    };
    const outbox = await waitDelivered();
    const received = fake.received.length;
    const texts = fake.received.map((r) => `${r.token}|${r.text}`);
    const duplicates = texts.length - new Set(texts).size;
    await db.end();

    const trend = (points: [number, number][]) => slope(points.filter(([m]) => m >= (SECONDS / 60) * 0.5));
    const mem = (k: 'a' | 'b') => {
      const p = memory[k]!;
      return `${p[0]![1].toFixed(0)} → ${p[p.length - 1]![1].toFixed(0)} MB (max ${Math.max(...p.map((x) => x[1])).toFixed(0)}), second-half trend ${trend(p).toFixed(2)} MB/min`;
    };
    const lines = [
      '',
      `Soak — 2 instances on one PostgreSQL, ${CLIENTS} clients, ${elapsed.toFixed(0)} s, ${os.cpus().length} CPUs, ${sent} requests (${(sent / elapsed).toFixed(0)}/s)`,
      '',
      '| request | count | errors | rate-limited | p50 ms | p99 ms |',
      '|---|---|---|---|---|---|',
      ...stats.rows(),
      '',
      `memory: instance a ${mem('a')}; instance b ${mem('b')}`,
      `ledger invariant: ${wallets.rowCount === 0 ? 'every wallet equals the sum of its ledger' : `${wallets.rowCount} wallets differ from their ledger`}`,
      `outbox invariant: ${outbox.delivered} of ${outbox.total} messages delivered; the fake robots received ${received}, duplicates ${duplicates}`,
      ...(stats.totalErrors ? ['', 'first errors:', ...stats.firstErrors(10)] : []),
    ];
    console.log(lines.join('\n'));
    const ok =
      stats.totalErrors === 0 &&
      wallets.rowCount === 0 &&
      outbox.delivered === outbox.total &&
      received === outbox.total &&
      duplicates === 0;
    if (!ok) process.exitCode = 1;
  } finally {
    for (const s of servers) s.proc.kill('SIGTERM');
    await Promise.all(spawned.map((s) => s.exited));
    await fake.stop();
    await root.query(`drop database if exists ${dbName}`);
    await root.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
