/**
 * The query log's and the ledger's rows name a user that exists: foreign keys to users, on delete
 * cascade. A row for a missing user fails the whole statement with the key's error and writes nothing
 * (a charge batch too, for everyone in it); deleting a user deletes their rows and no one else's; a user
 * deleted while a transaction writes rows for them takes those rows too, and a row written while its
 * user is being deleted is refused (PostgreSQL, which has concurrent transactions). The keys are what
 * `\d ocs_queries` and `\d ocs_ledger` show. On PGlite here, on PostgreSQL in that leg.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
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
  answer: '["A"]',
});

/** One query-log row for `user`, written by a plain insert. */
const queryRow = (db: Kysely<DB>, user: number) =>
  sql`insert into ocs_queries (user_id, title, title_hash, type, outcome)
      values (${user}, 't', 'h', 'single', 'bank')`.execute(db);

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
    // The same batch without the missing user is charged.
    const ok = await chargeMany(t.db, [charge(alice, 'uc-a1'), charge(bob, 'uc-b1')]);
    expect(ok.map((r) => r.status)).toEqual(['charged', 'charged']);
    expect([await getBalance(t.db, alice), await getBalance(t.db, bob)]).toEqual([a0 - 1, b0 - 1]);
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

  test('the rows reference users by foreign keys that cascade on delete, and no trigger checks them', async () => {
    const keys = await sql<{ name: string; def: string }>`
      select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
       where conname in ('ocs_queries_user_id_fkey', 'ocs_ledger_user_id_fkey') order by conname`.execute(t.db);
    expect(keys.rows).toEqual([
      { name: 'ocs_ledger_user_id_fkey', def: 'FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE' },
      { name: 'ocs_queries_user_id_fkey', def: 'FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE' },
    ]);
    const triggers = await sql<{ name: string }>`
      select tgname as name from pg_trigger
       where not tgisinternal and tgrelid in ('ocs_queries'::regclass, 'ocs_ledger'::regclass, 'users'::regclass)
       order by tgname`.execute(t.db);
    // The ledger's own append-only rule is the only trigger left on these tables.
    expect(triggers.rows.map((r) => r.name)).toEqual(['ocs_ledger_no_update']);
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
      // The delete waits for this transaction (its key check holds the user's row), then takes its rows.
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
});
