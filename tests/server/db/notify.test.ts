/**
 * Change announcements between instances (server/db/notify.ts). On PostgreSQL (TEST_DATABASE_URL):
 * delivered at commit and not on rollback, to every listener, the sender's own included; when the
 * listening connection dies the notifier says so (live false, onGap) and comes back when next asked.
 * On the embedded database: an in-process emitter.
 */
import { sql } from 'kysely';
import { openDatabase } from '../../../server/db/database';
import { LocalNotifier, notifierOf, PgNotifier } from '../../../server/db/notify';
import { openTestDatabase, rolledBack, type TestDatabase } from '../helpers';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await wait(10);
  }
}

test('the in-process notifier delivers at once to every listener', async () => {
  const n = new LocalNotifier();
  const got: string[] = [];
  await n.listen('portal_test', { onMessage: (p) => got.push(`a:${p}`) });
  await n.listen('portal_test', { onMessage: (p) => got.push(`b:${p}`) });
  await n.notify('portal_test', 'x');
  expect(got).toEqual(['a:x', 'b:x']);
  expect(n.live).toBe(true);
  await expect(n.notify('bad channel; drop', 'x')).rejects.toThrow(/invalid notification channel/);
});

const pgliteTest = process.env.TEST_DATABASE_URL ? test.skip : test;

pgliteTest('the embedded database notifies at commit, never on rollback, before the commit returns', async () => {
  const database = await openTestDatabase();
  try {
    const n = notifierOf(database.db);
    const got: string[] = [];
    await n.listen('portal_test', { onMessage: (p) => got.push(p) });
    await rolledBack(database.db, (trx) => n.notify('portal_test', 'rolled back', trx));
    await database.db.transaction().execute(async (trx) => {
      await n.notify('portal_test', 'committed', trx);
      expect(got).toEqual([]); // not before the commit
    });
    expect(got).toEqual(['committed']);
    // A statement seen twice runs prepared (another path through PGlite): still delivered.
    await n.notify('portal_test', 'a');
    await n.notify('portal_test', 'b');
    expect(got).toEqual(['committed', 'a', 'b']);
  } finally {
    await database.close();
  }
});

describe('LISTEN/NOTIFY on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL;
  const pgTest = url ? test : test.skip;
  let tdb: TestDatabase;

  beforeAll(async () => {
    if (url) tdb = await openTestDatabase();
  });
  afterAll(async () => {
    await tdb?.close();
  });

  pgTest('delivered at commit to every instance, never on rollback', async () => {
    const other = await openDatabase({ url: tdb.url!, poolMax: 2 });
    const mine = new PgNotifier(tdb.url!, tdb.db);
    const theirs = new PgNotifier(tdb.url!, other.db);
    try {
      const got: string[] = [];
      await mine.listen('portal_test', { onMessage: (p) => got.push(`mine:${p}`) });
      await theirs.listen('portal_test', { onMessage: (p) => got.push(`theirs:${p}`) });
      expect(mine.live && theirs.live).toBe(true);
      await tdb.db.transaction().execute(async (trx) => {
        await mine.notify('portal_test', 'committed', trx);
        await wait(100);
        expect(got).toEqual([]); // not before the commit
      });
      await until(() => got.length === 2);
      expect(got.sort()).toEqual(['mine:committed', 'theirs:committed']);
      await tdb.db
        .transaction()
        .execute(async (trx) => {
          await mine.notify('portal_test', 'rolled-back', trx);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await mine.notify('portal_test', 'after');
      await until(() => got.length === 4);
      expect(got.filter((g) => g.endsWith('rolled-back'))).toEqual([]);
    } finally {
      await mine.close();
      await theirs.close();
      await other.close();
    }
  });

  pgTest('a dropped listening connection is reported and replaced when next asked', async () => {
    const n = new PgNotifier(tdb.url!, tdb.db, 50);
    try {
      let gaps = 0;
      const got: string[] = [];
      await n.listen('portal_test', { onMessage: (p) => got.push(p), onGap: () => gaps++ });
      expect(n.live).toBe(true);
      const before = gaps;
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
                where query ilike 'listen%' and datname = current_database()`.execute(tdb.db);
      await until(() => !n.live);
      expect(gaps).toBeGreaterThan(before);
      await wait(60);
      await until(() => n.live); // asking reconnects
      await n.notify('portal_test', 'back');
      await until(() => got.includes('back'));
    } finally {
      await n.close();
    }
  });
});
