/**
 * The query log's and the ledger's rows name a user that exists (migration 0023): once per statement
 * instead of the foreign keys' once per row, with what the keys guaranteed. A row for a missing user
 * fails the whole statement with the key's error and writes nothing; a row's user cannot change;
 * deleting a user deletes their rows and no one else's; a user deleted while a transaction writes
 * rows for them takes those rows too (PostgreSQL, which has concurrent transactions). The check holds
 * each user with a shared advisory lock, not a lock on the user's row (migration 0024), except under
 * repeatable read, where it keeps the row lock. On PGlite here, on PostgreSQL in that leg.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { migrations } from '../../../server/db/migrations';
import type { DB } from '../../../server/db/schema';
import { credit, getBalance } from '../../../server/modules/ocs/wallet/balance';
import { chargeMany, type ChargeInput } from '../../../server/modules/ocs/wallet/charge';
import { createUser } from '../../../server/modules/user/service';
import {
  openTestDatabase,
  postgresOnly,
  rolledBack,
  uniqueName,
  untilLockWaiters,
  type TestDatabase,
} from '../helpers';

const checksUsers = migrations['0025_ocs_charge_checks_users']!;

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

/** One query-log row for `user`, written by a plain insert (the triggers' check runs on it). */
const queryRow = (db: Kysely<DB>, user: number) =>
  sql`insert into ocs_queries (user_id, title, title_hash, type, outcome)
      values (${user}, 't', 'h', 'single', 'bank')`.execute(db);

const rowsOf = async (db: Kysely<DB>, user: number) => {
  const q = await sql<{ n: number }>`select count(*)::int as n from ocs_queries where user_id = ${user}`.execute(db);
  const l = await sql<{ n: number }>`select count(*)::int as n from ocs_ledger where user_id = ${user}`.execute(db);
  return { queries: q.rows[0]!.n, ledger: l.rows[0]!.n };
};

/**
 * How this transaction holds a user now: its advisory lock on them (0024's key), and whether it locked
 * their row (a row lock stamps the row's xmax with the locker's transaction id).
 */
const holdOf = async (db: Kysely<DB>, user: number) => {
  const r = await sql<{ advisory: string | null; row_locked: boolean }>`
    select (select string_agg(mode, ',') from pg_locks
             where locktype = 'advisory' and classid = hashtext('ocs_user_rows')::oid and objid = ${user}::oid
               and objsubid = 2 and pid = pg_backend_pid()) as advisory,
           (select xmax = xid(pg_current_xact_id()) from users where id = ${user}) as row_locked`.execute(db);
  return { advisory: r.rows[0]!.advisory, rowLocked: r.rows[0]!.row_locked };
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
    expect(await codeOf(queryRow(t.db, MISSING))).toBe('23503');
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

  test("the check holds the user with a shared advisory lock, not by locking the user's row", async () => {
    const dave = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    await t.db.transaction().execute(async (trx) => {
      await queryRow(trx, dave);
      expect(await holdOf(trx, dave)).toEqual({ advisory: 'ShareLock', rowLocked: false });
    });
    // Under repeatable read the statement's snapshot predates the lock: there the row lock stays.
    const repeatable = () => t.db.transaction().setIsolationLevel('repeatable read');
    await repeatable().execute(async (trx) => {
      await queryRow(trx, dave);
      expect(await holdOf(trx, dave)).toEqual({ advisory: null, rowLocked: true });
    });
    expect(
      await codeOf(
        repeatable().execute((trx) =>
          sql`insert into ocs_ledger (user_id, kind, amount, balance_after, memo)
              values (${MISSING}, 'adjust', 1, 1, 'x')`.execute(trx),
        ),
      ),
    ).toBe('23503');
    expect(await rowsOf(t.db, dave)).toEqual({ queries: 2, ledger: 0 });
  });

  test("deleting a user takes the advisory lock exclusively, before the user's row goes", async () => {
    const erin = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    await t.db.transaction().execute(async (trx) => {
      await sql`delete from users where id = ${erin}`.execute(trx);
      expect((await holdOf(trx, erin)).advisory).toBe('ExclusiveLock');
    });
  });

  test("a charge batch checks its users itself: its inserts skip the triggers' check, the next insert does not", async () => {
    // The check made to fail whenever it is called (undone with the rest of the transaction).
    const calls = await rolledBack(t.db, async (trx) => {
      await sql`create or replace function ocs_rows_user_exists() returns trigger language plpgsql as $$
          begin raise exception 'the trigger check was called'; end $$`.execute(trx);
      const charged = await chargeMany(trx, [charge(alice, 'uc-skip-a'), charge(bob, 'uc-skip-b')]);
      const held = await holdOf(trx, alice);
      const after = await codeOf(queryRow(trx, alice));
      return { statuses: charged.map((r) => r.status), held, after };
    });
    expect(calls.statuses).toEqual(['charged', 'charged']);
    // The charge took the check's shared lock on its user itself, and no row lock.
    expect(calls.held).toEqual({ advisory: 'ShareLock', rowLocked: false });
    // P0001: the insert after the charge, in the same transaction, called the check again.
    expect(calls.after).toBe('P0001');
    // Outside the transaction the check is the real one again.
    expect(await codeOf(queryRow(t.db, MISSING))).toBe('23503');
  });

  test('a charge batch under repeatable read leaves the check to the triggers, with their row lock', async () => {
    const held = await t.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await chargeMany(trx, [charge(bob, 'uc-rr-b')]);
        return holdOf(trx, bob);
      });
    // The function's shared lock, and the triggers' row lock beside it.
    expect(held).toEqual({ advisory: 'ShareLock', rowLocked: true });
  });

  test('down of 0025 gives the check back to the triggers, and up to the charge', async () => {
    const skippable = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_trigger
          where tgname in ('ocs_queries_user_exists', 'ocs_ledger_user_exists') and tgqual is not null`.execute(t.db)
      ).rows[0]!.n;
    expect(await skippable()).toBe(2);
    await checksUsers.down!(t.db);
    expect(await skippable()).toBe(0);
    expect(await codeOf(chargeMany(t.db, [charge(alice, 'uc-down-a'), charge(MISSING, 'uc-down-m', 0)]))).toBe('23503');
    expect((await chargeMany(t.db, [charge(alice, 'uc-down-a')]))[0]!.status).toBe('charged');
    await checksUsers.up(t.db);
    expect(await skippable()).toBe(2);
  });

  test('down of 0024 brings back the row lock, and up the advisory lock', async () => {
    const m = migrations['0024_ocs_user_check_advisory']!;
    const insertHeld = async () =>
      t.db.transaction().execute(async (trx) => {
        await queryRow(trx, bob);
        return holdOf(trx, bob);
      });
    await m.down!(t.db);
    expect(await insertHeld()).toEqual({ advisory: null, rowLocked: true });
    expect(await codeOf(sql`select 'ocs_user_deleting'::regproc`.execute(t.db))).toBe('42883');
    await m.up(t.db);
    expect(await insertHeld()).toEqual({ advisory: 'ShareLock', rowLocked: false });
  });

  test('down restores the foreign keys, and up replaces them again', async () => {
    const keys = async () =>
      (
        await sql<{ name: string }>`select conname as name from pg_constraint
          where conname in ('ocs_queries_user_id_fkey', 'ocs_ledger_user_id_fkey') order by conname`.execute(t.db)
      ).rows.map((r) => r.name);
    const m = migrations['0023_ocs_user_check_per_statement']!;
    const advisory = migrations['0024_ocs_user_check_advisory']!;
    expect(await keys()).toEqual([]);
    await checksUsers.down!(t.db);
    await advisory.down!(t.db);
    await m.down!(t.db);
    expect(await keys()).toEqual(['ocs_ledger_user_id_fkey', 'ocs_queries_user_id_fkey']);
    await m.up(t.db);
    await advisory.up(t.db);
    await checksUsers.up(t.db);
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

  test.each([
    ['a row', queryRow],
    [
      'a charge batch',
      async (trx: Kysely<DB>, user: number) => {
        await credit(trx, user, 'topup', 5, 'test');
        expect((await chargeMany(trx, [charge(user, 'uc-held')]))[0]!.status).toBe('charged');
      },
    ],
  ])('a user deleted while a transaction writes %s for them takes those rows too', async (_what, write) => {
    const dave = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    let deleted: Promise<unknown> | undefined;
    await t.db.transaction().execute(async (trx) => {
      await write(trx, dave);
      // The delete waits for this transaction (its check holds the user), then takes its rows.
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
    const insert = codeOf(queryRow(t.db, erin));
    await untilLockWaiters(t.db, 1);
    await other.query('commit');
    expect(await insert).toBe('23503');
    expect(await rowsOf(t.db, erin)).toEqual({ queries: 0, ledger: 0 });
  });

  test('a charge batch whose user is being deleted is refused once the delete commits, and writes nothing', async () => {
    const gus = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    const hal = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    await credit(t.db, hal, 'topup', 5, 'test');
    const before = await rowsOf(t.db, hal);
    await other.query('begin');
    await other.query('delete from users where id = $1', [gus]);
    const charged = codeOf(chargeMany(t.db, [charge(hal, 'uc-del-h'), charge(gus, 'uc-del-g', 0)]));
    await untilLockWaiters(t.db, 1);
    await other.query('commit');
    expect(await charged).toBe('23503');
    expect(await rowsOf(t.db, gus)).toEqual({ queries: 0, ledger: 0 });
    expect(await rowsOf(t.db, hal)).toEqual(before);
    expect(await getBalance(t.db, hal)).toBe(5);
  });

  test.each([
    ['an insert', queryRow],
    ['a charge batch', (trx: Kysely<DB>, user: number) => chargeMany(trx, [charge(user, 'uc-rr', 0)])],
  ])('under repeatable read, %s for a user deleted since the snapshot fails the transaction', async (_what, write) => {
    const fay = (await createUser(t.db, { username: uniqueName('uc'), password: 'user-check-password-1' })).id;
    const code = await codeOf(
      t.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          await sql`select 1 from users where id = ${fay}`.execute(trx); // the snapshot: fay is there
          await other.query('delete from users where id = $1', [fay]);
          // Without the row lock the check would read fay in the snapshot and keep a row for no one.
          await write(trx, fay);
        }),
    );
    expect(code).toBe('40001');
    expect(await rowsOf(t.db, fay)).toEqual({ queries: 0, ledger: 0 });
  });
});
