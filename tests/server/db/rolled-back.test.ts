/** The tests' rolledBack helper: a value out of a transaction that leaves nothing behind. */
import { sql } from 'kysely';
import { openTestDatabase, rolledBack, type TestDatabase } from '../helpers';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  await sql`create table rolled_back_notes (note text not null)`.execute(t.db);
});

afterAll(async () => {
  await t.close();
});

const count = async (db: TestDatabase['db']) =>
  (await sql<{ n: number }>`select count(*)::int as n from rolled_back_notes`.execute(db)).rows[0]!.n;

test('what the function saw comes back, and what it wrote is gone', async () => {
  const seen = await rolledBack(t.db, async (trx) => {
    await sql`insert into rolled_back_notes (note) values ('a'), ('b')`.execute(trx);
    return count(trx);
  });
  expect(seen).toBe(2);
  expect(await count(t.db)).toBe(0);
});

test("the function's own error comes out, and its writes are gone too", async () => {
  await expect(
    rolledBack(t.db, async (trx) => {
      await sql`insert into rolled_back_notes (note) values ('c')`.execute(trx);
      throw new Error('refused');
    }),
  ).rejects.toThrow('refused');
  await expect(
    rolledBack(t.db, (trx) => sql`insert into rolled_back_notes (note) values (null)`.execute(trx)),
  ).rejects.toMatchObject({
    code: '23502',
  });
  expect(await count(t.db)).toBe(0);
});
