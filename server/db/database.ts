/**
 * Opens the database: a real PostgreSQL through DATABASE_URL, or embedded PGlite served from a worker
 * thread over a unix socket. Either way the app sees one driver (`pg`) and one dialect.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Kysely, Migrator, PostgresDialect, type MigrationResultSet } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations';
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
  /** Writes the embedded database to a tarball (PGlite only; used to clone a migrated template in tests). */
  dump(file: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Use this PostgreSQL; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; undefined means in memory. */
  pgDataDir?: string;
  /** Directory for the PGlite unix socket (0700). Defaults to a fresh temporary directory. */
  socketDir?: string;
  /** Start PGlite from a tarball made by dump(). */
  loadFrom?: string;
  poolMax?: number;
}

const SOCKET_PORT = 5432; // only names the socket file: .s.PGSQL.5432

export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  const poolMax = opts.poolMax ?? 10;
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: poolMax });
    watchIdleErrors(pool);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      dump: async () => {
        throw new Error('dump() is only available for PGlite');
      },
      close: () => db.destroy(),
    };
  }
  return openPglite(opts);
}

function socketDirFor(opts: OpenOptions): { dir: string; temporary: boolean } {
  // A unix socket path is limited to ~107 bytes; fall back to a private temp dir when DATA_DIR is deep.
  if (opts.socketDir && path.join(opts.socketDir, `.s.PGSQL.${SOCKET_PORT}`).length < 100) {
    fs.mkdirSync(opts.socketDir, { recursive: true, mode: 0o700 });
    fs.chmodSync(opts.socketDir, 0o700);
    return { dir: opts.socketDir, temporary: false };
  }
  return { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pg-')), temporary: true };
}

/**
 * One pg connection to PGlite, always. PGlite is a single Postgres session; pglite-socket multiplexes
 * several sockets onto it message by message, so two connections' extended-protocol messages
 * (Parse/Bind/Execute/Sync) interleave: one connection's Bind lands on the other's unnamed statement,
 * and after an error the session discards the other connection's messages until a Sync, which hangs
 * it. Measured here: 12 concurrent token creations through the app hung with a pool of 10 and pass
 * with 1. With one connection the pg pool queues statements and transactions in order, which is what
 * a single session does anyway.
 */
const PGLITE_POOL_MAX = 1;

async function openPglite(opts: OpenOptions): Promise<Database> {
  const poolMax = PGLITE_POOL_MAX;
  const { dir, temporary } = socketDirFor(opts);
  const socketPath = path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);
  // We hold the DATA_DIR lock, so a socket file left here belongs to a dead process.
  fs.rmSync(socketPath, { force: true });

  const worker = new Worker(path.join(__dirname, 'pglite-worker.mjs'), {
    workerData: {
      pgDataDir: opts.pgDataDir,
      socketPath,
      maxConnections: poolMax + 2,
      loadFrom: opts.loadFrom,
    },
  });
  let closing = false;
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  let nextId = 1;

  await new Promise<void>((resolve, reject) => {
    const onMessage = (msg: { type: string; message?: string }) => {
      if (msg.type === 'ready') {
        worker.off('message', onMessage);
        resolve();
      } else if (msg.type === 'error') {
        reject(new Error(`PGlite failed to start: ${msg.message}`));
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`PGlite worker exited with code ${code} during start`)));
  });
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  worker.on('message', (msg: { type: string; id?: number; message?: string }) => {
    if (msg.id && pending.has(msg.id)) {
      const p = pending.get(msg.id)!;
      pending.delete(msg.id);
      if (msg.type === 'error') p.reject(new Error(msg.message));
      else p.resolve();
    }
  });
  worker.on('error', (err) => {
    // The database is gone; nothing can be served correctly any more.
    console.error('PGlite worker crashed:', err);
    process.exitCode = 1;
  });

  const pool = new pg.Pool({ host: dir, port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: poolMax });
  watchIdleErrors(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

  return {
    db,
    kind: 'pglite',
    dump(file: string) {
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ type: 'dump', id, file });
      });
    },
    async close() {
      if (closing) return;
      closing = true;
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
      if (temporary) fs.rmSync(dir, { recursive: true, force: true });
      else fs.rmSync(socketPath, { force: true });
    },
  };
}

export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}
