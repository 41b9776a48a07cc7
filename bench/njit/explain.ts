/**
 * `tsx bench/njit/explain.ts`: loads N synthetic students (BENCH_ROWS, default 100,000) into a fresh
 * database (PGlite in a temporary directory, or DATABASE_URL, which must be a throwaway database) through the import
 * path, then prints EXPLAIN ANALYZE of the search statement for each lookup kind of the bench (and a few
 * more filter combinations) and times the search in-process, one at a time (EXPLAIN_REPEAT, default
 * 400, cycling over the bench's 200 picks). A tool for looking at plans, not a benchmark.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import type { DB } from '../../server/db/schema';
import { commitImport } from '../../server/modules/njit/imports';
import { previewRoster } from './preview';
import { nameKeys } from '../../server/modules/njit/record';
import { searchStudents } from '../../server/modules/njit/service';
import { StudentSearchQuery } from '../../src/contract';
import { syntheticCsv, syntheticStudents } from './synthetic';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const REPEAT = Number(process.env.EXPLAIN_REPEAT ?? 400);

/** A view of db whose raw statements run as EXPLAIN (ANALYZE, BUFFERS) and print the plan. */
function explaining(db: Kysely<DB>): Kysely<DB> {
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'getExecutor') {
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      }
      return () => {
        const ex = target.getExecutor();
        return new Proxy(ex, {
          get(t, p) {
            if (p !== 'executeQuery') {
              const v: unknown = Reflect.get(t, p, t);
              return typeof v === 'function' ? v.bind(t) : v;
            }
            return async (q: { sql: string; parameters: readonly unknown[] }) => {
              const plan = await t.executeQuery({
                ...q,
                sql: `explain (analyze, buffers, costs off) ${q.sql}`,
              } as never);
              console.log((plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n'));
              return t.executeQuery(q as never);
            };
          },
        });
      };
    },
  });
}

async function main() {
  const url = process.env.DATABASE_URL;
  // PGlite on disk, as the server runs it (reads of pages outside shared_buffers go to the files).
  const pgDataDir = url ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'portal-explain-njit-'));
  const database = await openDatabase(url ? { url } : { pgDataDir });
  const { db } = database;
  try {
    await migrateToLatest(db);
    const admin = await db
      .insertInto('users')
      .values({ username: `explain-${Date.now()}`, password_hash: 'x', roles: ['admin', 'njit'] })
      .returning(['id', 'username'])
      .executeTakeFirstOrThrow();
    const actor = { id: admin.id, username: admin.username, ip: null };
    const students = syntheticStudents(ROWS, { seed: 42 });
    const preview = await previewRoster(db, actor, 'explain.csv', syntheticCsv(students));
    const t0 = performance.now();
    await commitImport(db, actor, preview.importId);
    console.log(`import commit of ${ROWS} students: ${Math.round(performance.now() - t0)} ms`);
    if (process.env.EXPLAIN_IMPORT_ONLY) return;
    // The bench's 200 picks (run.ts), each lookup kind over all of them; the extra filter kinds on one.
    const picks = Array.from({ length: 200 }, (_, i) => students[(i * 7919) % students.length]);
    const s = picks[17];
    const kinds: [string, Record<string, unknown>[]][] = [
      ['studentNo prefix', picks.map((p) => ({ studentNo: p.学号.slice(0, 9) }))],
      ['exact name', picks.map((p) => ({ name: p.姓名, nameMode: 'exact' }))],
      ['pinyin', picks.map((p) => ({ name: nameKeys(p.姓名).name_pinyin }))],
      ['filters', picks.map((p) => ({ college: p.学院, grade: p.年级, status: '在读', major: p.专业 }))],
      ['filters, college only', [{ college: s.学院 }]],
      ['filters, college + grade + status', [{ college: s.学院, grade: s.年级, status: '在读' }]],
      ['filters, major only', [{ major: s.专业 }]],
      ['filters, status 休学', [{ status: '休学' }]],
      ['filters, status only, page 20', [{ status: '在读', current: 20, pageSize: 50 }]],
      ['filters, class', [{ className: s.班级, status: '在读' }]],
    ];
    for (const [label, inputs] of kinds) {
      const queries = inputs.map((input) => StudentSearchQuery.parse(input));
      const first = inputs.length > 1 ? 17 : 0;
      console.log(
        `\n=== ${label}: ${JSON.stringify(inputs[first])}${inputs.length > 1 ? ` (1 of ${inputs.length})` : ''}`,
      );
      const res = await searchStudents(explaining(db), actor, queries[first], 0);
      console.log(`-> rows ${res.rows.length}, total ${res.total}, capped ${res.capped}`);
      const ms: number[] = [];
      for (let i = 0; i < Math.max(REPEAT, queries.length); i++) {
        const t0 = performance.now();
        await searchStudents(db, actor, queries[i % queries.length], 0);
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2);
      console.log(`-> search ${at(0.5)} ms p50, ${at(0.9)} ms p90, ${at(0.99)} ms p99 (${ms.length} in a row)`);
    }
    // The embedded database's worker prepares statements it sees again: which searches got a generic
    // plan (planned once) and which are planned anew each time (custom).
    const plans = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
      select statement, generic_plans, custom_plans from pg_prepared_statements
      where statement like '%njit_audit%' order by custom_plans + generic_plans desc`.execute(db);
    for (const p of plans.rows) {
      const where = /where (.*?)(order by|limit|\))/s.exec(p.statement.replace(/\s+/g, ' '))?.[1] ?? '';
      console.log(`prepared: generic ${p.generic_plans}, custom ${p.custom_plans} — ${where.slice(0, 110)}`);
    }
    const settings = await sql<{ name: string; setting: string; unit: string | null }>`
      select name, setting, unit from pg_settings
      where name in ('shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost', 'server_version')`.execute(
      db,
    );
    console.log(`\n${settings.rows.map((r) => `${r.name}=${r.setting}${r.unit ?? ''}`).join(' ')}`);
  } finally {
    await database.close();
    if (pgDataDir) fs.rmSync(pgDataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
