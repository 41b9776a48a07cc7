/**
 * The embedded database flushes every acknowledged commit to the disk: PGlite out of the box runs
 * Postgres with fsync off and a file system without fsync, so commits survived a process crash but
 * not a power loss. A power cut cannot be staged in a test; what can be checked is that a flush call
 * reaches the disk for each commit before it is acknowledged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../server/db/database';

let dir: string;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-durable-'));
  database = await openDatabase({ pgDataDir: dir });
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

test('the data survives closing and reopening the directory', async () => {
  await database.close();
  database = await openDatabase({ pgDataDir: dir });
  const r = await sql<{ n: number }>`select count(*)::int as n from commits`.execute(database.db);
  expect(r.rows[0]!.n).toBe(22);
});
