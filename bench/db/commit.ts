/**
 * `npm run bench:commit`: what a durable commit costs on the embedded database, and what group commit
 * buys. Opens PGlite on a temporary directory three ways in the same run —
 *
 * - `no flush`: commits reach the operating system but are never flushed (PGlite's own default; what
 *   a power loss can take back);
 * - `flush each`: every commit is flushed in turn before it is acknowledged (the worker before group
 *   commit);
 * - `group commit`: the default — a commit is acknowledged after a flush that started after it, and one
 *   flush covers every commit that came while the previous one ran;
 *
 * and at 1, 10 and 50 concurrent writers (each inserting one row per statement and waiting for the
 * answer) reports commits/s, p50 and p99, and each mode's throughput ÷ `flush each` at the same
 * concurrency. BENCH_SECONDS (default 3) per cell.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const WRITERS = [1, 10, 50];
const MODES = [
  { name: 'no flush', durable: false, groupCommit: false },
  { name: 'flush each', durable: true, groupCommit: false },
  { name: 'group commit', durable: true, groupCommit: true },
] as const;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function cell(mode: (typeof MODES)[number], writers: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-commit-'));
  const database = await openDatabase({ pgDataDir: dir, durable: mode.durable, groupCommit: mode.groupCommit });
  try {
    await sql`create table bench_commits (id serial primary key, writer int not null, note text not null)`.execute(
      database.db,
    );
    const flushesBefore = (await database.workerStats()).fsyncs;
    const latencies: number[] = [];
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; performance.now() < end; i++) {
          const t0 = performance.now();
          await sql`insert into bench_commits (writer, note) values (${w}, ${`row ${i}`})`.execute(database.db);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const flushes = (await database.workerStats()).fsyncs - flushesBefore;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from bench_commits`.execute(database.db);
    if (rows[0]!.n !== latencies.length) throw new Error(`expected ${latencies.length} rows, found ${rows[0]!.n}`);
    latencies.sort((a, b) => a - b);
    return {
      perSecond: latencies.length / SECONDS,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      commitsPerFlush: flushes > 0 ? latencies.length / flushes : null,
    };
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(
    `Commit bench (PGlite on ${os.tmpdir()}) — single-row inserts, ${SECONDS}s per cell, ${os.cpus().length} CPUs\n`,
  );
  console.log('| writers | mode | commits/s | p50 ms | p99 ms | commits per flush | ÷ flush each |');
  console.log('|---|---|---|---|---|---|---|');
  for (const writers of WRITERS) {
    const results = [];
    for (const mode of MODES) results.push({ mode, ...(await cell(mode, writers)) });
    const baseline = results.find((r) => r.mode.name === 'flush each')!.perSecond;
    for (const r of results) {
      console.log(
        `| ${writers} | ${r.mode.name} | ${Math.round(r.perSecond)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${
          r.commitsPerFlush === null ? '—' : r.commitsPerFlush.toFixed(1)
        } | ${(r.perSecond / baseline).toFixed(2)} |`,
      );
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
