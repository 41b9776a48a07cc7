// Runs PGlite in a worker thread so its queries never block the main thread's event loop.
// The main thread sends {sql, params} messages (server/db/pglite-driver.ts); PGlite runs them one at a
// time, as its single Postgres session does anyway. Plain JS on purpose: a worker is started outside
// any TS loader (tsx, jest).
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const { pgDataDir, loadFrom } = workerData;

let db;

function errorPayload(err) {
  // The fields callers look at (unique violations are code 23505, for instance).
  const { message, code, detail, constraint, table, column, severity } = err ?? {};
  return { message: String(message ?? err), code, detail, constraint, table, column, severity };
}

async function start() {
  const loadDataDir = loadFrom ? new Blob([fs.readFileSync(loadFrom)]) : undefined;
  db = await PGlite.create({
    dataDir: pgDataDir || undefined,
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
