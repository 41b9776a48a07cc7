/**
 * The embedded database prepares a data statement the second time it sees it and from then on only
 * binds and executes it (server/db/pglite-worker.mjs). What a caller sees must not change: the same rows
 * and types as the plain path, errors with their codes, transactions, and schema changes under a
 * prepared statement.
 */
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../server/db/database';
import { GENERIC_PLAN_HINT } from '../../../server/db/pglite-driver';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({});
  await sql`create table things (
    id serial primary key,
    name text not null unique,
    n int8,
    price numeric(10, 2),
    ratio float8,
    flag boolean,
    at timestamptz,
    day date,
    tags text[],
    ids int4[],
    doc jsonb,
    blob bytea
  )`.execute(database.db);
});
afterAll(() => database.close());

const prepared = async () =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db)).rows.map(
    (r) => r.statement,
  );

const insert = (i: number) =>
  sql`insert into things (name, n, price, ratio, flag, at, day, tags, ids, doc, blob)
      values (${`thing ${i}`}, ${i * 1_000_000_007}, ${'12.50'}, ${i / 3}, ${i % 2 === 0},
              ${new Date(Date.UTC(2026, 0, 1 + i))}, ${'2026-02-03'}, ${[`a${i}`, 'b']}, ${[i, i + 1]},
              ${JSON.stringify({ i, nested: { ok: true } })}, ${Buffer.from([0, i, 255])})`;

test('a statement run a second time is prepared, and gives the same rows and types as the first run', async () => {
  for (let i = 1; i <= 3; i++) await insert(i).execute(database.db);
  const read = () => sql`select * from things where id = ${2}`.execute(database.db);
  const first = await read();
  const second = await read();
  const third = await read();
  expect(second.rows).toEqual(first.rows);
  expect(third.rows).toEqual(first.rows);
  const row = first.rows[0] as Record<string, unknown>;
  expect(row.n).toBe(2_000_000_014);
  expect(row.at).toEqual(new Date(Date.UTC(2026, 0, 3)));
  expect(row.tags).toEqual(['a2', 'b']);
  expect(row.ids).toEqual([2, 3]);
  expect(row.doc).toEqual({ i: 2, nested: { ok: true } });
  expect(Buffer.from(row.blob as Uint8Array)).toEqual(Buffer.from([0, 2, 255]));
  expect(await prepared()).toEqual(expect.arrayContaining([expect.stringContaining('select * from things where id')]));
});

test('affected rows, nulls and parameters of every kind on the prepared path', async () => {
  const update = (name: string) =>
    sql`update things set flag = ${null}, doc = ${JSON.stringify({ name })} where name = ${name} or id = ${-1}`.execute(
      database.db,
    );
  expect((await update('thing 1')).numAffectedRows).toBe(1n);
  expect((await update('thing 3')).numAffectedRows).toBe(1n);
  expect((await update('nobody')).numAffectedRows).toBe(0n);
  const { rows } = await sql<{ flag: boolean | null; doc: unknown }>`select flag, doc from things order by id`.execute(
    database.db,
  );
  expect(rows.map((r) => [r.flag, r.doc])).toEqual([
    [null, { name: 'thing 1' }],
    [true, { i: 2, nested: { ok: true } }],
    [null, { name: 'thing 3' }],
  ]);
});

test('errors keep their codes, and a failed prepared statement leaves the session usable', async () => {
  const dup = () => insert(1).execute(database.db);
  for (let k = 0; k < 3; k++)
    await expect(dup()).rejects.toMatchObject({ code: '23505', constraint: 'things_name_key' });
  await expect(
    database.db.transaction().execute(async (trx) => {
      await sql`update things set ratio = ${1} where id = ${1}`.execute(trx);
      await insert(2).execute(trx);
    }),
  ).rejects.toMatchObject({ code: '23505' });
  // The transaction rolled back; the same prepared statements still work afterwards.
  const r = await sql<{ ratio: number }>`select ratio from things where id = ${1}`.execute(database.db);
  expect(r.rows[0]!.ratio).toBeCloseTo(1 / 3);
  await expect(sql`select * from things where id = ${'not a number'}`.execute(database.db)).rejects.toMatchObject({
    code: '22P02',
  });
});

test('a schema change under a prepared statement: the statement sees the new columns', async () => {
  const all = () => sql<Record<string, unknown>>`select * from things where id = ${1}`.execute(database.db);
  await all();
  await all();
  await sql`alter table things add column extra text default 'x'`.execute(database.db);
  expect((await all()).rows[0]!.extra).toBe('x');
  expect((await all()).rows[0]!.extra).toBe('x');
});

test('a schema change inside a transaction: the prepared statements after it in the transaction still work', async () => {
  const all = () => sql<Record<string, unknown>>`select * from things where id = ${2}`.execute(database.db);
  await all();
  await all();
  const row = await database.db.transaction().execute(async (trx) => {
    await sql`alter table things add column later int default 7`.execute(trx);
    return (await sql<Record<string, unknown>>`select * from things where id = ${2}`.execute(trx)).rows[0]!;
  });
  expect(row.later).toBe(7);
});

test('a statement whose columns changed without the worker seeing the change is run again plainly', async () => {
  await sql`create table shapes (id int primary key)`.execute(database.db);
  await sql`insert into shapes values (1)`.execute(database.db);
  const read = () => sql<Record<string, unknown>>`select * from shapes where id = ${1}`.execute(database.db);
  await read();
  await read();
  // A schema change the worker cannot recognise as one: inside a function.
  await sql`do $$ begin execute 'alter table shapes add column label text default ''new'''; end $$`.execute(
    database.db,
  );
  expect((await read()).rows[0]).toEqual({ id: 1, label: 'new' });
  expect((await read()).rows[0]).toEqual({ id: 1, label: 'new' });
});

test('many distinct statements: only the most recent few hundred stay prepared', async () => {
  for (let i = 0; i < 400; i++) {
    const q = sql`select ${i}::int + id as v from things where id = ${1}`;
    // a distinct text each time (the literal), seen twice so that it is prepared
    const text = sql.raw(`select ${i} + id as v from things where id = 1`);
    await text.execute(database.db);
    await text.execute(database.db);
    expect((await q.execute(database.db)).rows[0]).toEqual({ v: i + 1 });
  }
  expect((await prepared()).length).toBeLessThanOrEqual(300);
});

test('a statement led by the generic-plan hint runs with a generic plan, and the setting does not leak', async () => {
  const hinted = (id: number) =>
    sql`${sql.raw(GENERIC_PLAN_HINT)}select name from things where id = ${id}`.execute(database.db);
  for (let i = 1; i <= 4; i++) expect((await hinted(i)).rows).toHaveLength(i <= 3 ? 1 : 0);
  const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
    select generic_plans, custom_plans from pg_prepared_statements where statement like ${'/* plan: generic */%'}`.execute(
    database.db,
  );
  // Seen once plainly, then prepared: every prepared execution planned generically.
  expect(rows).toEqual([{ generic_plans: 3, custom_plans: 0 }]);
  const mode = await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(database.db);
  expect(mode.rows[0]!.plan_cache_mode).toBe('auto');
  // A failing hinted statement leaves the setting as it was, also inside a transaction.
  const failing = () => sql`${sql.raw(GENERIC_PLAN_HINT)}select name from things where id = ${'x'}`;
  await expect(failing().execute(database.db)).rejects.toMatchObject({ code: '22P02' });
  await expect(failing().execute(database.db)).rejects.toMatchObject({ code: '22P02' });
  await expect(
    database.db.transaction().execute(async (trx) => {
      await failing().execute(trx);
    }),
  ).rejects.toMatchObject({ code: '22P02' });
  expect(
    (await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(database.db)).rows[0]!.plan_cache_mode,
  ).toBe('auto');
});
