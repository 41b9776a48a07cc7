// Runs PGlite in a worker thread and serves it over the Postgres wire protocol on a unix socket,
// so the main thread talks to it through `pg` like to any PostgreSQL and its event loop stays free.
// Plain JS on purpose: a worker is started outside any TS loader (tsx, jest).
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { pgDataDir, socketPath, maxConnections, loadFrom } = workerData;

let db;
let server;

async function start() {
  const loadDataDir = loadFrom ? new Blob([fs.readFileSync(loadFrom)]) : undefined;
  db = await PGlite.create({
    dataDir: pgDataDir || undefined,
    extensions: { pg_trgm },
    loadDataDir,
  });
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections });
  await server.start();
  fs.chmodSync(socketPath, 0o600);
  parentPort.postMessage({ type: 'ready' });
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'dump') {
      const blob = await db.dumpDataDir('none');
      fs.writeFileSync(msg.file, Buffer.from(await blob.arrayBuffer()));
      parentPort.postMessage({ type: 'dumped', id: msg.id });
    } else if (msg.type === 'close') {
      if (server) await server.stop();
      if (db) await db.close();
      parentPort.postMessage({ type: 'closed' });
    }
  } catch (err) {
    parentPort.postMessage({ type: 'error', id: msg.id, message: String(err && err.stack ? err.stack : err) });
  }
});

start().catch((err) => {
  parentPort.postMessage({ type: 'error', message: String(err && err.stack ? err.stack : err) });
});
