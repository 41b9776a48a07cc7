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
    const before = await database.fsyncCount();
    for (let i = 0; i < 20; i++) await sql`insert into commits (note) values (${`n${i}`})`.execute(database.db);
    expect((await database.fsyncCount()) - before).toBeGreaterThanOrEqual(20);
  });

  test('a transaction is flushed at its commit', async () => {
    const before = await database.fsyncCount();
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into commits (note) values ('a')`.execute(trx);
      await sql`insert into commits (note) values ('b')`.execute(trx);
    });
    expect((await database.fsyncCount()) - before).toBeGreaterThanOrEqual(1);
  });

  test('reads flush nothing', async () => {
    const before = await database.fsyncCount();
    for (let i = 0; i < 10; i++) await sql`select count(*) from commits`.execute(database.db);
    expect((await database.fsyncCount()) - before).toBe(0);
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
      else if ((needs.get(ev.id) ?? -1) > covered) bad.push(ev.id);
    });
    return bad;
  }

  test('concurrent commits share a flush, and nothing is answered before it', async () => {
    await database.flushTrace();
    const before = await database.fsyncCount();
    const writes = Array.from({ length: 40 }, (_, i) => sql`insert into commits (note) values (${`c${i}`})`);
    const reads = Array.from({ length: 10 }, () => sql<{ n: number }>`select count(*)::int as n from commits`);
    const results = await Promise.all([...writes, ...reads].map((q) => q.execute(database.db)));
    expect(results).toHaveLength(50);
    const flushes = (await database.fsyncCount()) - before;
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
        { e: 'flush-start', n: 1 },
        { e: 'flush', n: 1 },
        { e: 'ack', id: 2 },
      ]),
    ).toEqual([1]);
    // A flush that started before the commit does not cover it; a read after the commit waits too.
    expect(
      unflushedAnswers([
        { e: 'done', id: 1, owes: true },
        { e: 'flush-start', n: 1 },
        { e: 'done', id: 2, owes: true },
        { e: 'done', id: 3, owes: false },
        { e: 'flush', n: 1 },
        { e: 'ack', id: 1 },
        { e: 'ack', id: 2 },
        { e: 'ack', id: 3 },
        { e: 'flush-start', n: 2 },
        { e: 'flush', n: 2 },
      ]),
    ).toEqual([2, 3]);
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
