// Runs PGlite in a worker thread so its queries never block the main thread's event loop.
// The main thread sends {sql, params} messages (server/db/pglite-driver.ts); PGlite runs them one at a
// time, as its single Postgres session does anyway. Plain JS on purpose: a worker is started outside
// any TS loader (tsx, jest).
import { parentPort, workerData, Worker } from 'node:worker_threads';
import fs from 'node:fs';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { segmentDescriptor } from './segment-descriptor.mjs';

const { pgDataDir, loadFrom, durable = true, groupCommit = true, sharedBuffers, initdbArgs } = workerData;

/** Flushes (fdatasync) that reached the disk: the durability test reads it through the 'stats' message. */
let fsyncs = 0;
/** Flushes made in this thread while Postgres waited (before another file changed), and writes to files other than WAL. */
let syncFlushes = 0;
let dataWrites = 0;
/**
 * Milliseconds those flushes took in this thread (fdatasync calls); the flusher thread's share is kept in
 * flusherMicros. Their sum over fsyncs is what a flush costs the disk now: under load several times the
 * idle figure, and every answer held for a flush waits that long.
 */
let flushMs = 0;
/** Milliseconds spent running statements (the worker's busy time). */
let busyMs = 0;
/** The longest statement since the last 'stats' message: while it ran, every other one waited. */
let slowest = { ms: 0, sql: '' };
/** Time per statement text since the last stats call (at most BUSIEST_KEYS texts are told apart). */
const bySql = new Map();
const BUSIEST_KEYS = 500;
/** With workerData.trace: what happened in order, for the durability test (see flushTrace in database.ts). */
const trace = workerData.trace ? [] : null;

/** A WAL segment (pg_wal/ and 24 hex digits): the only files whose flush may be put off. */
const WAL = /\/pg_wal\/[0-9A-F]{24}$/;

/** Host paths of WAL segments Postgres asked to flush that no flush has started on yet. */
const owed = new Set();
/** Host paths of WAL segments written since a flush last started on them (every flush takes them too). */
const written = new Set();
/** The flush running in the background: its paths, its number and the WAL end it covers. */
let running = null;
/** The thread that makes the background flushes (wal-flusher.mjs), with group commit on disk. */
let flusher = null;
/** [0]: the number of the last background flush the flusher finished (it stores, we load). */
let flusherDone = null;
/** [0]: microseconds the flusher's fdatasync calls took so far (it adds, we load). */
let flusherMicros = null;
/** Flushes started so far (each covers what was owed when it started), and the last one finished. */
let started = 0;
let flushed = 0;

/**
 * WAL positions (LSNs, as numbers: below 2^53 for any database this side of 8 PB). `walEnd`: the end of
 * the WAL written so far; `durableLsn`: the end of the WAL a finished flush covered.
 */
let walEnd = 0;
let durableLsn = 0;
/** Bytes per WAL segment (wal_segment_size, read once Postgres is up); 0 until then: positions unknown. */
let segmentSize = 0;
const BLOCK = 8192;
/** A relation's data file (main, free-space map, visibility map, init fork; any 1 GB segment of it). */
const RELATION = /\/(?:base\/\d+|global)\/(?:t\d+_)?\d+(?:_(?:fsm|vm|init))?(?:\.\d+)?$/;

/** Where a WAL segment starts, from its name (timeline, log, segment: 8 hex digits each): [log, segment]. */
function segmentOf(file) {
  const name = file.slice(-24);
  return [parseInt(name.slice(8, 16), 16), parseInt(name.slice(16), 16)];
}

/**
 * The highest page LSN of a write to a relation's data file (pd_lsn, the first 8 bytes of a page: the
 * high then the low half, little-endian), or -1 when this is not a write of whole aligned pages or the
 * WAL's positions are unknown. Postgres flushes the WAL up to a page's LSN before it writes the page;
 * here that flush was only owed, so this is where the write-ahead rule is kept (see the write hook).
 */
function pageLsn(buffer, offset, length, position) {
  if (segmentSize === 0 || length < BLOCK || length % BLOCK !== 0 || position % BLOCK !== 0) return -1;
  const view = new DataView(buffer.buffer, buffer.byteOffset + offset, length);
  let max = 0;
  for (let at = 0; at < length; at += BLOCK) {
    max = Math.max(max, view.getUint32(at, true) * 2 ** 32 + view.getUint32(at + 4, true));
  }
  return max;
}

/** This thread's descriptor of the WAL segment it last flushed (the flusher keeps its own). */
const walFd = segmentDescriptor();

/** fdatasync in this thread, counted in fsyncs and timed in flushMs. */
function fdatasyncCounted(fd) {
  const t0 = performance.now();
  fs.fdatasyncSync(fd);
  flushMs += performance.now() - t0;
  fsyncs++;
}

function flushPathSync(file) {
  fdatasyncCounted(walFd.of(file));
}

/**
 * Makes every WAL write so far durable now, in this thread: before Postgres changes any other file
 * (its write-ahead rule: it believes the WAL is already flushed), and before a data file's own flush.
 */
function flushAllSync() {
  const paths = new Set([...(running?.paths ?? []), ...owed, ...written]);
  if (paths.size === 0) return;
  syncFlushes++;
  const n = ++started;
  const covers = walEnd;
  trace?.push({ e: 'flush-start', n, lsn: covers });
  for (const file of paths) flushPathSync(file);
  owed.clear();
  written.clear();
  flushed = n;
  durableLsn = Math.max(durableLsn, covers);
  trace?.push({ e: 'flush', n });
}

/**
 * Starts flushing what is owed in the background (the flusher thread), unless a flush is running: the
 * statements that run meanwhile are then covered by the next one, which starts when it ends (group
 * commit). A failed flush ends the worker (see the flusher's 'failed' message): nothing it covered is
 * ever acknowledged.
 */
function startFlush() {
  if (running || owed.size === 0) return;
  const n = ++started;
  const paths = [...new Set([...owed, ...written])];
  owed.clear();
  written.clear();
  const covers = walEnd;
  trace?.push({ e: 'flush-start', n, lsn: covers });
  running = { paths, n, covers };
  flusher.postMessage({ type: 'flush', n, paths });
}

/**
 * Takes note of the background flush if the flusher has finished it: after every statement (a load
 * from shared memory, so a busy worker sees it between two statements rather than after all it has
 * queued) and on the flusher's message (when idle). Releases the answers it covers and starts the next.
 */
function checkFlushed() {
  if (!running || Atomics.load(flusherDone, 0) < running.n) return;
  const { n, paths, covers } = running;
  running = null;
  fsyncs += paths.length;
  flushed = Math.max(flushed, n);
  durableLsn = Math.max(durableLsn, covers);
  trace?.push({ e: 'flush', n });
  release();
  startFlush();
}

/**
 * Out of the box PGlite never flushes to disk: it starts Postgres with -F (fsync off), its Emscripten
 * NODEFS has no fsync (Postgres's fsync() returns success without flushing), and Emscripten's fdatasync,
 * Postgres's default WAL flush, is a no-op. So a committed transaction survived a process crash but not
 * a power loss. This file system gives fsync() a real flush (fdatasync: what Postgres itself uses for WAL
 * on Linux; ~0.5 ms here, where a full fsync cost ~2.5 ms), and the worker starts Postgres without -F
 * and with wal_sync_method=fsync, so every commit asks for its WAL to be flushed.
 *
 * Group commit: a WAL flush is owed rather than made while Postgres waits. The statement's answer, and
 * every answer after it (a read may show what the commit wrote), is held until a flush that started
 * after the statement has finished; flushes run in the background while the next statements execute,
 * and one flush covers every commit that came while the previous one ran. Postgres's write-ahead rule
 * still holds on the disk: before any other file is written, truncated, created, renamed, removed or
 * flushed, the WAL written so far is flushed in this thread first — except a relation's pages whose
 * LSNs a finished flush already covers (pageLsn): evicting old pages under load waits for no flush.
 */
class DurableNodeFS extends NodeFS {
  async init(pg, opts) {
    const hook = (mod) => {
      const nodefs = mod.FS.filesystems.NODEFS;
      const isWal = (stream) => (stream.isWal ??= WAL.test(stream.path ?? ''));
      const beforeOtherChange = () => {
        if (owed.size || running || written.size) nodefs.tryFSOperation(flushAllSync);
      };
      const streams = nodefs.stream_ops;
      const { write, setattr } = streams;
      streams.fsync = (stream) => {
        if (stream.nfd === undefined) return 0;
        if (isWal(stream) && groupCommit) {
          owed.add(nodefs.realPath(stream.node));
        } else {
          beforeOtherChange();
          nodefs.tryFSOperation(() => fdatasyncCounted(stream.nfd));
        }
        return 0;
      };
      streams.write = function (stream, buffer, offset, length, position) {
        if (isWal(stream)) {
          stream.walPath ??= nodefs.realPath(stream.node);
          stream.walSegment ??= segmentOf(stream.walPath);
          written.add(stream.walPath);
          // Until the segment size is known the end stays behind: flushes then claim less than they made durable.
          if (segmentSize > 0) {
            const [log, segment] = stream.walSegment;
            walEnd = Math.max(walEnd, log * 2 ** 32 + segment * segmentSize + position + length);
          }
        } else {
          dataWrites++;
          stream.isRelation ??= RELATION.test(stream.path ?? '');
          const lsn = stream.isRelation ? pageLsn(buffer, offset, length, position) : -1;
          // Pages whose WAL a finished flush covered go straight to the disk (evictions under load);
          // anything else first makes all WAL written so far durable.
          if (lsn < 0 || lsn > durableLsn) beforeOtherChange();
          trace?.push({ e: 'write', lsn, written: walEnd });
        }
        return write.call(this, stream, buffer, offset, length, position);
      };
      streams.setattr = function (stream, ...rest) {
        if (!isWal(stream)) beforeOtherChange();
        return setattr.call(this, stream, ...rest);
      };
      const nodes = nodefs.node_ops;
      for (const op of ['setattr', 'mknod', 'rename', 'unlink', 'rmdir', 'symlink']) {
        const original = nodes[op];
        if (!original) continue;
        nodes[op] = function (...args) {
          beforeOtherChange();
          return original.apply(this, args);
        };
      }
    };
    return super.init(pg, { ...opts, preRun: [...(opts.preRun ?? []), hook] });
  }
}

/** Answers waiting for a flush, in the order their statements ran; `after`: the flush they wait for. */
const held = [];

function post(msg) {
  trace?.push({ e: 'ack', id: msg.id });
  parentPort.postMessage(msg);
}

function release() {
  while (held.length > 0 && held[0].after <= flushed) post(held.shift().msg);
}

/** Sends a statement's answer now, or holds it behind the flush it needs. */
function answer(msg) {
  if (owed.size > 0) held.push({ msg, after: started + 1 });
  else if (held.length > 0) held.push({ msg, after: held[held.length - 1].after });
  else post(msg);
  // Only now: the flush this may start takes what this statement owes, which decided its place above.
  checkFlushed();
  release();
  startFlush();
}

let db;

/** Runs one database operation at a time, in arrival order: a prepared statement takes several protocol calls. */
let chain = Promise.resolve();
function exclusive(fn) {
  const p = chain.then(fn);
  chain = p.catch(() => {});
  return p;
}

/**
 * Prepared statements. PGlite's query() parses, describes and plans every statement anew (~0.3 ms for a
 * small join here, more than running it). A data statement (select, insert, update, delete, with)
 * seen a second time is prepared under a name and from then on only bound and executed, as the pg
 * driver does with named queries: Postgres keeps the parse and, once it finds a generic plan as good
 * as the custom ones, the plan. The most recently used MAX_STATEMENTS texts are remembered; a
 * statement that changes the schema (create, alter, drop, …) forgets them all, and a statement whose
 * result columns changed under it (0A000) is forgotten and, outside a transaction, run again plainly.
 */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** GENERIC_PLAN_HINT (pglite-driver.ts): this statement runs with plan_cache_mode=force_generic_plan. */
const GENERIC_HINT = '/* plan: generic */ ';
const SCHEMA_CHANGE = /^\s*(create|alter|drop|truncate|comment|reindex|grant|revoke|import)\b/i;
const MAX_STATEMENTS = 300;
const statements = new Map();
let statementNames = 0;
const { serialize } = protocol;

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function closeStatement(s) {
  if (s.name) await db.execProtocol(concat([serialize.close({ type: 'S', name: s.name }), serialize.sync()]));
}

async function prepare(text, s) {
  const name = `portal_${++statementNames}`;
  const r = await db.execProtocol(
    concat([serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]),
  );
  s.types = parse.parseDescribeStatementResults(r.messages);
  s.name = name;
}

async function runPrepared(s, params) {
  // As PGlite's query() turns parameters into text: by the type Postgres inferred for each.
  const values = params.map((v, i) => {
    if (v === null || v === undefined) return null;
    const serializer = db.serializers[s.types[i]];
    return serializer ? serializer(v) : v.toString();
  });
  const r = await db.execProtocol(
    concat([
      serialize.bind({ statement: s.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]),
  );
  return parse.parseResults(r.messages, db.parsers, {}, undefined)[0];
}

async function runQuery(text, params, inTransaction) {
  const generic = text.startsWith(GENERIC_HINT);
  if (!PREPARABLE.test(generic ? text.slice(GENERIC_HINT.length) : text)) {
    const r = await db.query(text, params);
    if (SCHEMA_CHANGE.test(text) && statements.size > 0) {
      for (const s of statements.values()) await closeStatement(s);
      statements.clear();
    }
    return r;
  }
  let s = statements.get(text);
  if (!s) {
    statements.set(text, { name: null, types: null });
    if (statements.size > MAX_STATEMENTS) {
      const [oldest, old] = statements.entries().next().value;
      statements.delete(oldest);
      await closeStatement(old);
    }
    return db.query(text, params);
  }
  statements.delete(text);
  statements.set(text, s);
  if (!s.name) await prepare(text, s);
  try {
    if (!generic) return await runPrepared(s, params);
    await db.exec('set plan_cache_mode = force_generic_plan');
    let result;
    try {
      result = await runPrepared(s, params);
    } catch (err) {
      // In a failed transaction the reset fails too; the rollback undoes the set.
      await db.exec('reset plan_cache_mode').catch(() => {});
      throw err;
    }
    await db.exec('reset plan_cache_mode');
    return result;
  } catch (err) {
    if (err?.code !== '0A000') throw err;
    statements.delete(text);
    await closeStatement(s);
    if (inTransaction) throw err;
    return db.query(text, params);
  }
}

function errorPayload(err) {
  // The fields callers look at (unique violations are code 23505, for instance).
  const { message, code, detail, constraint, table, column, severity } = err ?? {};
  return { message: String(message ?? err), code, detail, constraint, table, column, severity };
}

async function start() {
  const loadDataDir = loadFrom ? new Blob([fs.readFileSync(loadFrom)]) : undefined;
  const onDisk = Boolean(pgDataDir) && durable;
  // Postgres zeroes its whole buffer cache at start: ~0.7 s of the ~1 s a start takes at the default 128MB.
  const buffers = sharedBuffers ? ['-c', `shared_buffers=${sharedBuffers}`] : [];
  db = await PGlite.create({
    ...(onDisk
      ? {
          fs: new DurableNodeFS(pgDataDir),
          startParams: [
            ...PGlite.defaultStartParams.filter((p) => p !== '-F'),
            '-c',
            'wal_sync_method=fsync',
            ...buffers,
          ],
        }
      : { dataDir: pgDataDir || undefined, startParams: [...PGlite.defaultStartParams, ...buffers] }),
    extensions: { pg_trgm },
    loadDataDir,
    ...(initdbArgs ? { initDbStartParams: initdbArgs } : {}),
    // bigint (count(*), identity columns) as JS numbers, as the pg driver is set up to do.
    parsers: { 20: (v) => Number(v) },
  });
  // NOTIFY of this session's own LISTENs (server/db/notify.ts, PgliteNotifier): Postgres hands them over
  // with the answer to the statement that commits, so they reach the main thread before that answer.
  db.onNotification((channel, payload) => parentPort.postMessage({ type: 'notification', channel, payload }));
  if (onDisk) {
    const r = await db.query(`select setting::bigint as bytes from pg_settings where name = 'wal_segment_size'`);
    segmentSize = Number(r.rows[0]?.bytes ?? 0);
  }
  if (onDisk && groupCommit) {
    const shared = new SharedArrayBuffer(4);
    const micros = new SharedArrayBuffer(8);
    flusherDone = new Int32Array(shared);
    flusherMicros = new BigInt64Array(micros);
    flusher = new Worker(new URL('./wal-flusher.mjs', import.meta.url), {
      workerData: { shared, micros },
      execArgv: [],
    });
    flusher.on('message', (m) => {
      if (m.type === 'flushed') checkFlushed();
      else if (m.type === 'failed') throw Object.assign(new Error(`WAL flush failed: ${m.message}`), { code: m.code });
    });
    flusher.on('error', (err) => {
      throw err;
    });
    // It never keeps this thread alive by itself; 'close' below flushes everything first.
    flusher.unref();
  }
  parentPort.postMessage({ type: 'ready' });
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.type === 'query') {
      // The answer is settled inside the exclusive turn: before the next statement can commit anything.
      await exclusive(async () => {
        let reply;
        const t0 = performance.now();
        try {
          const r = await runQuery(msg.sql, msg.params, msg.tx === true);
          reply = { type: 'result', id: msg.id, rows: r.rows, affectedRows: r.affectedRows ?? 0 };
        } catch (err) {
          reply = { type: 'error', id: msg.id, error: errorPayload(err) };
        }
        const ms = performance.now() - t0;
        busyMs += ms;
        if (ms > slowest.ms) slowest = { ms, sql: msg.sql };
        let spent = bySql.get(msg.sql);
        if (!spent && bySql.size < BUSIEST_KEYS) bySql.set(msg.sql, (spent = { count: 0, ms: 0 }));
        if (spent) {
          spent.count++;
          spent.ms += ms;
        }
        trace?.push({ e: 'done', id: msg.id, owes: owed.size > 0 });
        answer(reply);
      });
    } else if (msg.type === 'dump') {
      const blob = await exclusive(() => db.dumpDataDir('none'));
      fs.writeFileSync(msg.file, Buffer.from(await blob.arrayBuffer()));
      parentPort.postMessage({ type: 'result', id: msg.id, rows: [], affectedRows: 0 });
    } else if (msg.type === 'stats') {
      const busiest = [...bySql]
        .map(([sql, spent]) => ({ sql, ...spent }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5);
      const background = flusherMicros ? Number(Atomics.load(flusherMicros, 0)) / 1000 : 0;
      const row = { fsyncs, syncFlushes, dataWrites, busyMs, flushMs: flushMs + background, slowest, busiest };
      slowest = { ms: 0, sql: '' };
      bySql.clear();
      answer({
        type: 'result',
        id: msg.id,
        rows: [{ ...row, trace: msg.trace ? (trace?.splice(0) ?? null) : null }],
        affectedRows: 0,
      });
    } else if (msg.type === 'close') {
      if (db) await exclusive(() => db.close());
      flushAllSync();
      release();
      walFd.close();
      flusher?.postMessage({ type: 'close' });
      parentPort.postMessage({ type: 'closed' });
    }
  } catch (err) {
    answer({ type: 'error', id: msg.id, error: errorPayload(err) });
  }
});

start().catch((err) => {
  parentPort.postMessage({ type: 'error', error: errorPayload(err) });
});
