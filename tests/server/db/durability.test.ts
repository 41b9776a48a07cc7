/**
 * The embedded database flushes every acknowledged commit to the disk: PGlite out of the box runs
 * Postgres with fsync off and a file system without fsync, so commits survived a process crash but
 * not a power loss. A power cut cannot be staged in a test; what can be checked is that a flush call
 * reaches the disk for each commit before it is acknowledged — and, with group commit, that no answer
 * (a read included) leaves the worker while a commit before it waits for its flush.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database, type FlushEvent } from '../../../server/db/database';
import { pgliteOnly } from '../helpers';

pgliteOnly('embedded database', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-durable-'));
    database = await openDatabase({ pgDataDir: dir, traceFlushes: true });
    await sql`create table commits (id serial primary key, note text)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('every committed statement is flushed to the disk before it is acknowledged', async () => {
    const before = await database.workerStats();
    for (let i = 0; i < 20; i++) await sql`insert into commits (note) values (${`n${i}`})`.execute(database.db);
    const after = await database.workerStats();
    expect(after.fsyncs - before.fsyncs).toBeGreaterThanOrEqual(20);
    // The time those flushes took is counted (in the flusher thread and in the worker's own): each one
    // reached the disk before its answer, so its time is in before the answer is.
    expect(after.flushMs).toBeGreaterThan(before.flushMs);
  });

  test('a transaction is flushed at its commit', async () => {
    const before = (await database.workerStats()).fsyncs;
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into commits (note) values ('a')`.execute(trx);
      await sql`insert into commits (note) values ('b')`.execute(trx);
    });
    expect((await database.workerStats()).fsyncs - before).toBeGreaterThanOrEqual(1);
  });

  test('reads flush nothing', async () => {
    const before = await database.workerStats();
    for (let i = 0; i < 10; i++) await sql`select count(*) from commits`.execute(database.db);
    const after = await database.workerStats();
    expect(after.fsyncs - before.fsyncs).toBe(0);
    expect(after.flushMs).toBe(before.flushMs);
  });

  /**
   * Every answer is sent after a flush that started after the last commit before it (its own included)
   * and finished: walks the worker's events (statement done, flush started, flush finished, answer sent)
   * and returns the answers that broke the rule.
   */
  function unflushedAnswers(events: FlushEvent[]): number[] {
    const bad: number[] = [];
    let lastOwing = -1;
    const needs = new Map<number, number>();
    const startedAt = new Map<number, number>();
    let covered = -1;
    events.forEach((ev, i) => {
      if (ev.e === 'done') {
        if (ev.owes) lastOwing = i;
        needs.set(ev.id, lastOwing);
      } else if (ev.e === 'flush-start') startedAt.set(ev.n, i);
      else if (ev.e === 'flush') covered = Math.max(covered, startedAt.get(ev.n) ?? Infinity);
      else if (ev.e === 'ack' && (needs.get(ev.id) ?? -1) > covered) bad.push(ev.id);
    });
    return bad;
  }

  test('concurrent commits share a flush, and nothing is answered before it', async () => {
    await database.flushTrace();
    const before = (await database.workerStats()).fsyncs;
    const writes = Array.from({ length: 40 }, (_, i) => sql`insert into commits (note) values (${`c${i}`})`);
    const reads = Array.from({ length: 10 }, () => sql<{ n: number }>`select count(*)::int as n from commits`);
    const results = await Promise.all([...writes, ...reads].map((q) => q.execute(database.db)));
    expect(results).toHaveLength(50);
    const flushes = (await database.workerStats()).fsyncs - before;
    expect(flushes).toBeGreaterThanOrEqual(1);
    expect(flushes).toBeLessThan(40);
    const events = await database.flushTrace();
    // The 50 statements and the calls that read the flush count.
    expect(events.filter((e) => e.e === 'ack').length).toBeGreaterThanOrEqual(50);
    expect(events.filter((e) => e.e === 'done' && e.owes).length).toBeGreaterThanOrEqual(40);
    expect(unflushedAnswers(events)).toEqual([]);
    // The reads sent after the writes see all of them.
    for (const r of results.slice(40)) expect((r.rows[0] as { n: number }).n).toBe(62);
  });

  test('a read that runs while a commit before it is being flushed waits for that flush', async () => {
    await database.flushTrace();
    const write = sql`insert into commits (note) values ('w')`.execute(database.db);
    const reads = Array.from({ length: 5 }, () =>
      sql<{ n: number }>`select count(*)::int as n from commits`.execute(database.db),
    );
    await write;
    for (const r of await Promise.all(reads)) expect(r.rows[0]!.n).toBe(63);
    expect(unflushedAnswers(await database.flushTrace())).toEqual([]);
  });

  test('the rule the trace is checked by catches an answer sent before its flush', () => {
    expect(
      unflushedAnswers([
        { e: 'done', id: 1, owes: true },
        { e: 'done', id: 2, owes: false },
        { e: 'ack', id: 1 },
        { e: 'flush-start', n: 1, lsn: 0 },
        { e: 'flush', n: 1 },
        { e: 'ack', id: 2 },
      ]),
    ).toEqual([1]);
    // A flush that started before the commit does not cover it; a read after the commit waits too.
    expect(
      unflushedAnswers([
        { e: 'done', id: 1, owes: true },
        { e: 'flush-start', n: 1, lsn: 0 },
        { e: 'done', id: 2, owes: true },
        { e: 'done', id: 3, owes: false },
        { e: 'flush', n: 1 },
        { e: 'ack', id: 1 },
        { e: 'ack', id: 2 },
        { e: 'ack', id: 3 },
        { e: 'flush-start', n: 2, lsn: 0 },
        { e: 'flush', n: 2 },
      ]),
    ).toEqual([2, 3]);
  });

  test('a flush that ends while statements queue up releases its answers before the queue is done', async () => {
    // The flush is made in a thread of its own and its end is read after every statement: with the
    // thread pool's callback, a worker with messages queued saw it only once all of them had run, and
    // every answer behind the flush waited that long (~5 ms under the bench's load for a 0.14 ms flush).
    await sql`create table probes (note text)`.execute(database.db);
    await database.flushTrace();
    const reads = Array.from({ length: 1000 }, () => sql`select count(*)::int as n from commits`);
    await Promise.all([sql`insert into probes (note) values ('q')`, ...reads].map((q) => q.execute(database.db)));
    const events = await database.flushTrace();
    expect(unflushedAnswers(events)).toEqual([]);
    const done = events.flatMap((e, i) => (e.e === 'done' ? [{ ...e, i }] : []));
    expect(done).toHaveLength(1001);
    expect(done[0].owes).toBe(true);
    const insertAck = events.findIndex((e) => e.e === 'ack' && e.id === done[0].id);
    expect(insertAck).toBeGreaterThan(done[0].i);
    // Half the queue (~50 ms of reads) is a wide margin for a flush of one insert.
    expect(insertAck).toBeLessThan(done[500].i);
  });

  test('a transaction waits for the commits before it, and its own commit is flushed', async () => {
    await database.flushTrace();
    const pending = Array.from({ length: 5 }, (_, i) =>
      sql`insert into commits (note) values (${`t${i}`})`.execute(database.db),
    );
    const tx = database.db.transaction().execute(async (trx) => {
      const r = await sql<{ n: number }>`select count(*)::int as n from commits`.execute(trx);
      await sql`insert into commits (note) values ('in tx')`.execute(trx);
      return r.rows[0]!.n;
    });
    await Promise.all(pending);
    expect(await tx).toBe(68);
    expect(unflushedAnswers(await database.flushTrace())).toEqual([]);
  });

  test('the data survives closing and reopening the directory', async () => {
    await database.close();
    database = await openDatabase({ pgDataDir: dir });
    const r = await sql<{ n: number }>`select count(*)::int as n from commits`.execute(database.db);
    expect(r.rows[0]!.n).toBe(69);
  });
});

/**
 * A page Postgres writes out (an eviction, a checkpoint) may reach the disk without a flush first when
 * the WAL up to its LSN is already durable — otherwise every eviction under load waited for a flush.
 * Checked from the trace alone: every page write's LSN is covered by a flush that finished before it.
 */
pgliteOnly('embedded database: the write-ahead rule under evictions', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-durable-pages-'));
    // 128 buffers of 8 kB against a table of ~3 MB: updates evict dirty pages all the time.
    database = await openDatabase({ pgDataDir: dir, traceFlushes: true, sharedBuffers: '1MB' });
    await sql`create table pages (id int primary key, n int not null, pad text not null)`.execute(database.db);
    await sql`insert into pages select g, 0, repeat('x', 600) from generate_series(1, 4000) g`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Page writes made while WAL they may need was not durable: the page's LSN is past what finished
   * flushes covered, and so is the WAL written by then. (A page past the WAL written is one Postgres
   * writes before its WAL on purpose, a new relation's pages written directly; everything written was
   * durable then, as the rule asks.)
   */
  function uncoveredWrites(events: FlushEvent[]): Array<{ lsn: number; covered: number }> {
    const covers = new Map<number, number>();
    let covered = 0;
    const bad: Array<{ lsn: number; covered: number }> = [];
    for (const ev of events) {
      if (ev.e === 'flush-start') covers.set(ev.n, ev.lsn);
      else if (ev.e === 'flush') covered = Math.max(covered, covers.get(ev.n) ?? 0);
      else if (ev.e === 'write' && ev.lsn > covered && ev.written > covered) bad.push({ lsn: ev.lsn, covered });
    }
    return bad;
  }

  test('evicted pages are written after the WAL up to their LSN is durable, most without a flush of their own', async () => {
    // The trace since the database was opened: every flush that could cover a page is in it.
    const before = await database.workerStats();
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          sql`update pages set n = n + 1 where id = ${((round * 397 + i * 101) % 4000) + 1}`.execute(database.db),
        ),
      );
    }
    const after = await database.workerStats();
    const events = await database.flushTrace();
    const writes = events.filter((e): e is Extract<FlushEvent, { e: 'write' }> => e.e === 'write' && e.lsn > 0);
    expect(writes.length).toBeGreaterThan(50);
    expect(uncoveredWrites(events)).toEqual([]);
    // The shortcut is taken: far fewer flushes waited for than pages written with a WAL position.
    expect(after.syncFlushes - before.syncFlushes).toBeLessThan(writes.length / 4);
    const total = await sql<{ n: number }>`select sum(n)::int as n from pages`.execute(database.db);
    expect(total.rows[0]!.n).toBe(400);
  });

  test('the WAL positions the worker tracks are the database’s own', async () => {
    await database.flushTrace();
    await sql`update pages set n = n + 1 where id = 1`.execute(database.db);
    const lsn = await sql<{ at: string }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as at`.execute(
      database.db,
    );
    const starts = (await database.flushTrace()).filter(
      (e): e is Extract<FlushEvent, { e: 'flush-start' }> => e.e === 'flush-start',
    );
    expect(starts.length).toBeGreaterThan(0);
    // WAL is written in whole 8 kB pages, so the end written may run past the insert position by one page.
    expect(Math.abs(starts[starts.length - 1]!.lsn - Number(lsn.rows[0]!.at))).toBeLessThan(8192 * 2);
  });

  test('the rule the trace is checked by catches a page written ahead of its WAL', () => {
    expect(
      uncoveredWrites([
        { e: 'flush-start', n: 1, lsn: 1000 },
        { e: 'write', lsn: 900, written: 1000 },
        { e: 'flush', n: 1 },
        { e: 'write', lsn: 900, written: 1100 },
        { e: 'write', lsn: 1200, written: 1300 },
        // Past the WAL written, with all of it durable: allowed.
        { e: 'write', lsn: 1200, written: 1000 },
      ]),
    ).toEqual([
      { lsn: 900, covered: 0 },
      { lsn: 1200, covered: 1000 },
    ]);
  });

  test('the data survives closing and reopening', async () => {
    await database.close();
    database = await openDatabase({ pgDataDir: dir, sharedBuffers: '1MB' });
    const total = await sql<{ n: number }>`select sum(n)::int as n from pages`.execute(database.db);
    expect(total.rows[0]!.n).toBe(401);
  });
});
