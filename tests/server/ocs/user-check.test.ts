/**
 * The query log's and the ledger's rows name a user that exists (migration 0023): once per statement
 * instead of the foreign keys' once per row, with what the keys guaranteed. A row for a missing user
 * fails the whole statement with the key's error and writes nothing; a row's user cannot change;
 * deleting a user deletes their rows and no one else's; a user deleted while a transaction writes
 * rows for them takes those rows too (PostgreSQL, which has concurrent transactions). On PGlite here,
 * on PostgreSQL in that leg.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { migrations } from '../../../server/db/migrations';
import type { DB } from '../../../server/db/schema';
import { credit, getBalance } from '../../../server/modules/ocs/wallet/balance';
import { chargeMany, type ChargeInput } from '../../../server/modules/ocs/wallet/charge';
import { createUser } from '../../../server/modules/user/service';
import { openTestDatabase, postgresOnly, uniqueName, untilLockWaiters, type TestDatabase } from '../helpers';

const MISSING = 2_147_483_000;

const charge = (userId: number, key: string, price = 1): ChargeInput => ({
  userId,
  tokenId: null,
  price,
  key,
  title: `题目 ${key}`,
  type: 'single',
  outcome: 'bank',
  questionId: null,
  modelId: null,
  answer: 'A',
});

const rowsOf = async (db: Kysely<DB>, user: number) => {
  const q = await sql<{ n: number }>`select count(*)::int as n from ocs_queries where user_id = ${user}`.execute(db);
  const l = await sql<{ n: number }>`select count(*)::int as n from ocs_ledger where user_id = ${user}`.execute(db);
  return { queries: q.rows[0]!.n, ledger: l.rows[0]!.n };
};

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (err: { code?: string }) => err.code,
  );

describe('the user of a query or ledger row', () => {
  let t: TestDatabase;
  let alice: number;
  let bob: number;

  beforeAll(async () => {
    t = await openTestDatabase();
    alice = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    bob = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    await credit(t.db, alice, 'topup', 10, 'test');
    await credit(t.db, bob, 'topup', 10, 'test');
  });
  afterAll(async () => {
    await t.close();
  });

  test('a row for a user that does not exist is refused with the foreign key error', async () => {
    expect(
      await codeOf(
        sql`insert into ocs_queries (user_id, title, title_hash, type, outcome)
            values (${MISSING}, 't', 'h', 'single', 'bank')`.execute(t.db),
      ),
    ).toBe('23503');
    expect(
      await codeOf(
        sql`insert into ocs_ledger (user_id, kind, amount, balance_after, memo)
            values (${MISSING}, 'adjust', 1, 1, 'x')`.execute(t.db),
      ),
    ).toBe('23503');
    expect(await rowsOf(t.db, MISSING)).toEqual({ queries: 0, ledger: 0 });
  });

  test('one missing user in a multi-row insert refuses every row of it', async () => {
    const before = await rowsOf(t.db, alice);
    expect(
      await codeOf(
        sql`insert into ocs_queries (user_id, title, title_hash, type, outcome)
            values (${alice}, 't', 'h1', 'single', 'bank'), (${MISSING}, 't', 'h2', 'single', 'bank'),
                   (${bob}, 't', 'h3', 'single', 'bank')`.execute(t.db),
      ),
    ).toBe('23503');
    expect(await rowsOf(t.db, alice)).toEqual(before);
  });

  test('a charge batch with a missing user changes nothing for anyone in it', async () => {
    const [a0, b0] = [await getBalance(t.db, alice), await getBalance(t.db, bob)];
    const [ra, rb] = [await rowsOf(t.db, alice), await rowsOf(t.db, bob)];
    expect(
      await codeOf(chargeMany(t.db, [charge(alice, 'uc-a1'), charge(MISSING, 'uc-m1', 0), charge(bob, 'uc-b1')])),
    ).toBe('23503');
    expect([await getBalance(t.db, alice), await getBalance(t.db, bob)]).toEqual([a0, b0]);
    expect([await rowsOf(t.db, alice), await rowsOf(t.db, bob)]).toEqual([ra, rb]);
    // The same batch without the missing user is charged: the check passes existing users.
    const ok = await chargeMany(t.db, [charge(alice, 'uc-a1'), charge(bob, 'uc-b1')]);
    expect(ok.map((r) => r.status)).toEqual(['charged', 'charged']);
    expect([await getBalance(t.db, alice), await getBalance(t.db, bob)]).toEqual([a0 - 1, b0 - 1]);
  });

  test("a row's user cannot change", async () => {
    const id = (await sql<{ id: number }>`select id from ocs_queries where user_id = ${alice} limit 1`.execute(t.db))
      .rows[0]!.id;
    expect(await codeOf(sql`update ocs_queries set user_id = ${bob} where id = ${id}`.execute(t.db))).toBe('23503');
    expect(
      (await sql<{ u: number }>`select user_id as u from ocs_queries where id = ${id}`.execute(t.db)).rows[0]!.u,
    ).toBe(alice);
    // Other columns still change (the check looks at user_id only).
    await sql`update ocs_queries set message = 'checked' where id = ${id}`.execute(t.db);
  });

  test("deleting a user deletes their query and ledger rows, and no one else's", async () => {
    const carol = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    await credit(t.db, carol, 'topup', 5, 'test');
    await chargeMany(t.db, [charge(carol, 'uc-c1'), charge(carol, 'uc-c2')]);
    expect(await rowsOf(t.db, carol)).toEqual({ queries: 2, ledger: 3 });
    const others = [await rowsOf(t.db, alice), await rowsOf(t.db, bob)];
    await sql`delete from users where id = ${carol}`.execute(t.db);
    expect(await rowsOf(t.db, carol)).toEqual({ queries: 0, ledger: 0 });
    expect([await rowsOf(t.db, alice), await rowsOf(t.db, bob)]).toEqual(others);
  });

  test('down restores the foreign keys, and up replaces them again', async () => {
    const keys = async () =>
      (
        await sql<{ name: string }>`select conname as name from pg_constraint
          where conname in ('ocs_queries_user_id_fkey', 'ocs_ledger_user_id_fkey') order by conname`.execute(t.db)
      ).rows.map((r) => r.name);
    const m = migrations['0023_ocs_user_check_per_statement']!;
    expect(await keys()).toEqual([]);
    await m.down!(t.db);
    expect(await keys()).toEqual(['ocs_ledger_user_id_fkey', 'ocs_queries_user_id_fkey']);
    await m.up(t.db);
    expect(await keys()).toEqual([]);
    expect(
      await codeOf(
        sql`insert into ocs_ledger (user_id, kind, amount, balance_after, memo)
            values (${MISSING}, 'adjust', 1, 1, 'x')`.execute(t.db),
      ),
    ).toBe('23503');
  });
});

postgresOnly('the user of a query row, with concurrent transactions', () => {
  let t: TestDatabase;
  let other: pg.Client;

  beforeAll(async () => {
    t = await openTestDatabase();
    other = new pg.Client({ connectionString: t.url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await t.close();
  });

  test('a user deleted while a transaction writes rows for them takes those rows too', async () => {
    const dave = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    let deleted: Promise<unknown> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await sql`insert into ocs_queries (user_id, title, title_hash, type, outcome)
                values (${dave}, 't', 'h', 'single', 'bank')`.execute(trx);
      // The delete waits for this transaction (its check holds the user's row), then takes its row.
      deleted = other.query('delete from users where id = $1', [dave]);
      await untilLockWaiters(t.db, 1);
    });
    await deleted;
    expect(await rowsOf(t.db, dave)).toEqual({ queries: 0, ledger: 0 });
  });

  test('a row written while its user is being deleted is refused once the delete commits', async () => {
    const erin = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    await other.query('begin');
    await other.query('delete from users where id = $1', [erin]);
    const insert = codeOf(
      sql`insert into ocs_queries (user_id, title, title_hash, type, outcome)
          values (${erin}, 't', 'h', 'single', 'bank')`.execute(t.db),
    );
    await untilLockWaiters(t.db, 1);
    await other.query('commit');
    expect(await insert).toBe('23503');
    expect(await rowsOf(t.db, erin)).toEqual({ queries: 0, ledger: 0 });
  });
});
