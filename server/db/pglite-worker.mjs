// Runs PGlite in a worker thread so its queries never block the main thread's event loop.
// The main thread sends {sql, params} messages (server/db/pglite-driver.ts); PGlite runs them one at a
// time, as its single Postgres session does anyway. Plain JS on purpose: a worker is started outside
// any TS loader (tsx, jest).
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { NodeFS } from '@electric-sql/pglite/nodefs';

const { pgDataDir, loadFrom, durable = true } = workerData;

/** Flushes (fdatasync) that reached the disk: the durability test reads it through the 'stats' message. */
let fsyncs = 0;

/**
 * Out of the box PGlite never flushes to disk: it starts Postgres with -F (fsync off), its Emscripten
 * NODEFS has no fsync (Postgres's fsync() returns success without flushing), and Emscripten's fdatasync,
 * Postgres's default WAL flush, is a no-op. So a committed transaction survived a process crash but not
 * a power loss. This file system gives fsync() a real flush (fdatasync on the file: what Postgres itself
 * uses for WAL on Linux; measured at ~0.5 ms per commit here, where a full fsync cost ~2.5 ms), and the
 * worker starts Postgres without -F and with wal_sync_method=fsync, so every commit's WAL flush reaches
 * the disk before the commit is acknowledged.
 */
class DurableNodeFS extends NodeFS {
  async init(pg, opts) {
    const flush = (mod) => {
      const nodefs = mod.FS.filesystems.NODEFS;
      nodefs.stream_ops.fsync = (stream) => {
        if (stream.nfd === undefined) return 0;
        nodefs.tryFSOperation(() => fs.fdatasyncSync(stream.nfd));
        fsyncs++;
        return 0;
      };
    };
    return super.init(pg, { ...opts, preRun: [...(opts.preRun ?? []), flush] });
  }
}

let db;

function errorPayload(err) {
  // The fields callers look at (unique violations are code 23505, for instance).
  const { message, code, detail, constraint, table, column, severity } = err ?? {};
  return { message: String(message ?? err), code, detail, constraint, table, column, severity };
}

async function start() {
  const loadDataDir = loadFrom ? new Blob([fs.readFileSync(loadFrom)]) : undefined;
  const onDisk = Boolean(pgDataDir) && durable;
  db = await PGlite.create({
    ...(onDisk
      ? {
          fs: new DurableNodeFS(pgDataDir),
          startParams: [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync'],
        }
      : { dataDir: pgDataDir || undefined }),
    extensions: { pg_trgm },
    loadDataDir,
    // bigint (count(*), identity columns) as JS numbers, as the pg driver is set up to do.
    parsers: { 20: (v) => Number(v) },
  });
  parentPort.postMessage({ type: 'ready' });
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'query') {
      const r = await db.query(msg.sql, msg.params);
      parentPort.postMessage({ type: 'result', id: msg.id, rows: r.rows, affectedRows: r.affectedRows ?? 0 });
    } else if (msg.type === 'dump') {
      const blob = await db.dumpDataDir('none');
      fs.writeFileSync(msg.file, Buffer.from(await blob.arrayBuffer()));
      parentPort.postMessage({ type: 'result', id: msg.id, rows: [], affectedRows: 0 });
    } else if (msg.type === 'stats') {
      parentPort.postMessage({ type: 'result', id: msg.id, rows: [{ fsyncs }], affectedRows: 0 });
    } else if (msg.type === 'close') {
      if (db) await db.close();
      parentPort.postMessage({ type: 'closed' });
    }
  } catch (err) {
    parentPort.postMessage({ type: 'error', id: msg.id, error: errorPayload(err) });
  }
});

start().catch((err) => {
  parentPort.postMessage({ type: 'error', error: errorPayload(err) });
});
