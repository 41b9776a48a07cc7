// The PGlite worker's flushes of WAL segments, made in a thread of their own (pglite-worker.mjs starts it).
// Why a thread and not the thread pool's fdatasync: the pool's callback runs only when the PGlite worker's
// event loop takes it, and under load that loop is running statement after statement (all the queued
// messages in one turn), so a flush of ~0.14 ms was seen done only ~5 ms later, and every
// answer behind it waited that long. Here the end of each flush is published at once in shared memory,
// which the PGlite worker reads after every statement; a message also wakes it when it is idle.
// Plain JS on purpose, like the worker that starts it.
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { segmentDescriptor } from './segment-descriptor.mjs';

/** [0]: the number of the last flush that finished (Atomics: the PGlite worker reads it). */
const done = new Int32Array(workerData.shared);
/** [0]: microseconds the flushes took so far (Atomics: the PGlite worker reads it for its stats). */
const micros = new BigInt64Array(workerData.micros);

/** Our own descriptor of the segment last flushed. */
const segment = segmentDescriptor();

parentPort.on('message', (msg) => {
  if (msg.type === 'close') {
    segment.close();
    parentPort.close();
    return;
  }
  // { type: 'flush', n, paths }: flushes every path, then publishes n.
  const t0 = performance.now();
  try {
    for (const file of msg.paths) fs.fdatasyncSync(segment.of(file));
  } catch (err) {
    // Nothing this flush covered may be acknowledged: the PGlite worker ends on this message.
    parentPort.postMessage({ type: 'failed', n: msg.n, message: String(err?.message ?? err), code: err?.code });
    return;
  }
  Atomics.add(micros, 0, BigInt(Math.round((performance.now() - t0) * 1000)));
  Atomics.store(done, 0, msg.n);
  parentPort.postMessage({ type: 'flushed', n: msg.n });
});
