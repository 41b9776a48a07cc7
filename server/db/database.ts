/**
 * Opens the database: a real PostgreSQL through DATABASE_URL (pg pool), or embedded PGlite in a worker
 * thread (pglite-driver.ts). Either way the app sees one Kysely dialect: PostgreSQL's.
 *
 * Why not pglite-socket (DESIGN.md's suggestion): it multiplexes several pg connections onto PGlite's one
 * session message by message, so two connections' Parse/Bind/Execute/Sync interleave — one connection's
 * Bind lands on the other's statement, and after an error the session drops the other's messages until
 * a Sync and that client hangs (12 concurrent token creations hung with a pool of 10). With a single
 * pg connection it is correct but does not pipeline; the worker driver measured 2.2x its lookups/s.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Kysely, Migrator, PostgresDialect, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations';
import { PgliteNotifier, PgNotifier, registerNotifier, type Notifier } from './notify';
import { pgliteWorkerDialect, WorkerChannel } from './pglite-driver';
import { registerPoolStats } from './pool-stats';
import type { DB } from './schema';

// bigint (count(*), identity columns) as JS numbers: every value we store fits in 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * An idle pooled connection that the server ends (PostgreSQL restarting, an administrator's
 * pg_terminate_backend, a dropped test database) emits 'error' on the pool; without a listener that
 * would crash the process. The pool discards that connection and opens a new one when needed.
 */
function watchIdleErrors(pool: pg.Pool): void {
  pool.on('error', (err) => {
    process.stderr.write(`database connection lost while idle (it will be replaced): ${err.message}\n`);
  });
}

export interface Database {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** Change announcements between instances (server/db/notify.ts). */
  notifier: Notifier;
  /** Writes the embedded database to a tarball (PGlite only; used to clone a migrated template in tests). */
  dump(file: string): Promise<void>;
  /**
   * PGlite: the worker's counters so far (the durability test counts flushes; the bench reports them per
   * workload); zeros on PostgreSQL, which flushes by its own configuration.
   */
  workerStats(): Promise<WorkerStats>;
  /**
   * PGlite opened with `traceFlushes`: the worker's events since the last call, in order — a statement
   * done (and whether a commit's flush was owed then), a flush started and finished, an answer sent.
   * Empty otherwise.
   */
  flushTrace(): Promise<FlushEvent[]>;
  close(): Promise<void>;
}

export interface WorkerStats {
  /** Flushes (fdatasync) that reached the disk. */
  fsyncs: number;
  /** Of those, flushes Postgres waited for: the WAL flushed before another file changed. */
  syncFlushes: number;
  /** Writes to files other than the WAL (buffers written out, checkpoints). */
  dataWrites: number;
  /** Milliseconds the worker spent running statements. */
  busyMs: number;
  /**
   * Milliseconds the flushes counted in `fsyncs` took (their fdatasync calls, in the worker and in its
   * flusher thread): over fsyncs, what one flush costs the disk.
   */
  flushMs: number;
  /** The longest statement since the previous call (its text, without values), which held up all others. */
  slowest: { ms: number; sql: string };
  /** The statement texts that took the most time since the previous call, most first (at most 5). */
  busiest: Array<{ sql: string; count: number; ms: number }>;
}

export interface OpenOptions {
  /** Use this PostgreSQL; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; undefined means in memory. */
  pgDataDir?: string;
  /** Start PGlite from a tarball made by dump(). */
  loadFrom?: string;
  poolMax?: number;
  /**
   * PGlite on disk: flush every commit to the disk (the default). False only to measure what the
   * flushing costs (bench): commits then survive a process crash but not a power loss.
   */
  durable?: boolean;
  /**
   * PGlite on disk: one flush covers the commits that came while the previous one ran (the default).
   * False flushes each commit in turn, as Postgres asks (to measure group commit against, in bench).
   */
  groupCommit?: boolean;
  /**
   * PGlite: its buffer cache (shared_buffers, e.g. `16MB`); unset keeps Postgres's 128MB. Postgres
   * zeroes the whole cache at start, so a small one starts the database several times faster (tests).
   */
  sharedBuffers?: string;
  /** PGlite: arguments added to initdb's when a new database is created here (e.g. `--wal-segsize=1`). */
  initdbArgs?: string[];
  /** PGlite: record the worker's flush events for flushTrace() (the durability test). */
  traceFlushes?: boolean;
}

export type FlushEvent =
  | { e: 'done'; id: number; owes: boolean }
  /** lsn: the end of the WAL written when the flush started (what it makes durable). */
  | { e: 'flush-start'; n: number; lsn: number }
  | { e: 'flush'; n: number }
  | { e: 'ack'; id: number }
  /**
   * A write to a file other than the WAL: lsn is the highest page LSN of a relation's pages, -1 for
   * anything else; written: the end of the WAL written by then.
   */
  | { e: 'write'; lsn: number; written: number };

export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  const poolMax = opts.poolMax ?? 10;
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: poolMax });
    watchIdleErrors(pool);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const notifier = new PgNotifier(opts.url, db);
    registerNotifier(db, notifier);
    registerPoolStats(db, () => ({
      kind: 'postgres',
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return {
      db,
      kind: 'postgres',
      notifier,
      dump: async () => {
        throw new Error('dump() is only available for PGlite');
      },
      workerStats: async () => ({
        fsyncs: 0,
        syncFlushes: 0,
        dataWrites: 0,
        busyMs: 0,
        flushMs: 0,
        slowest: { ms: 0, sql: '' },
        busiest: [],
      }),
      flushTrace: async () => [],
      close: async () => {
        await notifier.close();
        await db.destroy();
      },
    };
  }
  return openPglite(opts);
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const worker = new Worker(path.join(__dirname, 'pglite-worker.mjs'), {
    workerData: {
      pgDataDir: opts.pgDataDir,
      loadFrom: opts.loadFrom,
      durable: opts.durable ?? true,
      groupCommit: opts.groupCommit ?? true,
      trace: opts.traceFlushes ?? false,
      sharedBuffers: opts.sharedBuffers,
      initdbArgs: opts.initdbArgs,
    },
  });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (msg: { type: string; error?: { message: string } }) => {
      if (msg.type === 'ready') {
        worker.off('message', onMessage);
        resolve();
      } else if (msg.type === 'error') {
        reject(new Error(`PGlite failed to start: ${msg.error?.message}`));
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`PGlite worker exited with code ${code} during start`)));
  });
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.on('error', (err) => {
    // The database is gone; nothing can be served correctly any more.
    process.stderr.write(`PGlite worker crashed: ${err.stack ?? err.message}\n`);
    process.exitCode = 1;
  });

  const channel = new WorkerChannel(worker);
  const db = new Kysely<DB>({ dialect: pgliteWorkerDialect(channel) });
  // The process is the only instance on its data directory; PGlite's own LISTEN/NOTIFY serves it.
  const notifier = new PgliteNotifier(db);
  worker.on('message', (msg: { type: string; channel?: string; payload?: string }) => {
    if (msg.type === 'notification') notifier.deliver(msg.channel!, msg.payload ?? '');
  });
  registerNotifier(db, notifier);
  registerPoolStats(db, () => ({ kind: 'pglite', pending: channel.pendingCount, inUseMs: channel.inUseMs }));
  let closing = false;
  return {
    db,
    kind: 'pglite',
    notifier,
    async dump(file: string) {
      await channel.request({ type: 'dump', file });
    },
    async workerStats() {
      const r = await channel.request({ type: 'stats' });
      const row = r.rows[0] ?? {};
      const n = (k: string) => Number(row[k] ?? 0);
      const slowest = (row.slowest as WorkerStats['slowest'] | undefined) ?? { ms: 0, sql: '' };
      return {
        fsyncs: n('fsyncs'),
        syncFlushes: n('syncFlushes'),
        dataWrites: n('dataWrites'),
        busyMs: n('busyMs'),
        flushMs: n('flushMs'),
        slowest,
        busiest: (row.busiest as WorkerStats['busiest'] | undefined) ?? [],
      };
    },
    async flushTrace() {
      const r = await channel.request({ type: 'stats', trace: true });
      return (r.rows[0]?.trace as FlushEvent[] | null) ?? [];
    },
    async close() {
      if (closing) return;
      closing = true;
      await notifier.close();
      await db.destroy();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 10_000);
        worker.on('message', (msg: { type: string }) => {
          if (msg.type === 'closed') {
            clearTimeout(timer);
            void worker.terminate().then(() => resolve());
          }
        });
        worker.postMessage({ type: 'close' });
      });
    },
  };
}

/** The migrations of this build that the database has not applied (readiness: `GET /api/health/ready`). */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return (await migrator.getMigrations()).filter((m) => !m.executedAt).map((m) => m.name);
}

export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
