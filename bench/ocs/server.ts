/**
 * The portal server as `npm start` runs it, plus probe routes that exist only here, never part of the
 * product: GET /api/bench/raw-lookup, a question by title hash through the same database handle (the
 * database ceiling the OCS query path is compared with; public, and under /api so that it passes the
 * same hooks and gets the same headers as an API answer); the others outside /api: GET /bench/db-stats, the
 * PGlite worker's counters and the WAL position, read around each workload; POST /bench/checkpoint,
 * before each workload.
 *
 * With BENCH_PROFILE_DIR set, two more probes: POST /bench/profile/start and /bench/profile/stop?name=N
 * take a CPU profile of the main thread over one workload only (N.cpuprofile in that directory), where
 * node's --cpu-prof would mix in the start and the index load.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { run } from '../../server/main';

const profileDir = process.env.BENCH_PROFILE_DIR;

run({
  beforeListen: async (app, database) => {
    const { db } = database;
    app.get('/api/bench/raw-lookup', { config: { auth: 'public' } }, async (request) => {
      const h = String((request.query as { h?: string }).h ?? '');
      const row = await db
        .selectFrom('ocs_questions')
        .select(['id', 'answer'])
        .where('title_hash', '=', h)
        .limit(1)
        .executeTakeFirst();
      return { found: !!row };
    });
    // The worker's counters and the WAL position, read before and after each workload.
    app.get('/bench/db-stats', async () => {
      const lsn = await sql<{
        bytes: string;
      }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as bytes`.execute(db);
      return { ...(await database.workerStats()), walBytes: Number(lsn.rows[0]!.bytes) };
    });
    // Writes out every dirty page, so a workload does not pay for the one before (PostgreSQL: needs the
    // pg_checkpoint role or a superuser; without, the workload starts as it is).
    app.post('/bench/checkpoint', async () => {
      const ok = await sql`checkpoint`.execute(db).then(
        () => true,
        () => false,
      );
      return { ok };
    });
    if (!profileDir) return;
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    app.post('/bench/profile/start', async () => {
      await session.post('Profiler.start');
      return { ok: true };
    });
    app.post('/bench/profile/stop', async (request) => {
      const name = String((request.query as { name?: string }).name ?? 'profile').replace(/[^\w.-]/g, '_');
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(path.join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
      return { ok: true };
    });
  },
});
