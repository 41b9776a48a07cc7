/**
 * The bank's generation (migration 0021): every statement that changes or removes questions raises
 * it in its own transaction, and a charge of an answer memory read at the generation of now does not
 * look at the question's row; at any other generation it does, as before. Memory labels its rows with
 * the generation they were read at, and a charge (of single questions through the batcher, or of a
 * page through the batch endpoint) moves the label on when it found a row unchanged. On PGlite here,
 * on PostgreSQL in that leg.
 */
import { sql } from 'kysely';
import { ExactIndex } from '../../../server/modules/ocs/bank/exact-index';
import { VERSION_SQL } from '../../../server/modules/ocs/bank/index-sync';
import { normalizeTitle } from '../../../server/modules/ocs/bank/normalize';
import type { QuestionInput } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { credit } from '../../../server/modules/ocs/wallet/balance';
import { chargeManyAt, type ChargeInput } from '../../../server/modules/ocs/wallet/charge';
import { createUser } from '../../../server/modules/user/service';
import { ask, preparedQuestion, seedQuestions, userWithToken } from './admin-fixtures';
import {
  openTestDatabase,
  rolledBack,
  startTestApp,
  uniqueName,
  untilLockWaiters,
  type TestContext,
  type TestDatabase,
} from '../helpers';
import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/schema';

const generationOf = async (db: Kysely<DB>) =>
  Number((await sql<{ n: string }>`select n from ocs_bank_generation`.execute(db)).rows[0]!.n);

const versionOf = async (db: Kysely<DB>, id: number) =>
  Number(
    (await sql<{ v: string }>`select ${VERSION_SQL} as v from ocs_questions where id = ${id}`.execute(db)).rows[0]!.v,
  );

/** A true-or-false question (对 unless told). */
const judgement = (title: string, answer = '对'): QuestionInput => ({
  title,
  type: 'judgement',
  options: [],
  answer: [answer],
});

describe('in the database', () => {
  let t: TestDatabase;
  let user: number;

  beforeAll(async () => {
    t = await openTestDatabase();
    user = (await createUser(t.db, { username: uniqueName('gen'), password: 'generation-password-1' })).id;
    await credit(t.db, user, 'topup', 100, 'test');
  });
  afterAll(async () => {
    await t.close();
  });

  test('changing or removing questions raises it; adding new ones does not', async () => {
    const g0 = await generationOf(t.db);
    const [a, b] = (
      await upsertQuestions(
        t.db,
        [preparedQuestion(judgement('代数：新题一')), preparedQuestion(judgement('代数：新题二'))],
        'import',
      )
    ).rows;
    expect(await generationOf(t.db)).toBe(g0);
    // The same question again is an update of its row (an upsert's ON CONFLICT DO UPDATE).
    await upsertQuestions(t.db, [preparedQuestion(judgement('代数：新题一', '错'))], 'import');
    expect(await generationOf(t.db)).toBe(g0 + 1);
    await t.db.updateTable('ocs_questions').set({ status: 'wrong' }).where('id', '=', -1).execute();
    expect(await generationOf(t.db)).toBe(g0 + 1);
    await t.db.updateTable('ocs_questions').set({ status: 'wrong' }).where('id', '=', a!.id).execute();
    expect(await generationOf(t.db)).toBe(g0 + 2);
    // Rolled back with the change it came with.
    await t.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('ocs_questions').set({ status: 'verified' }).where('id', '=', a!.id).execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await generationOf(t.db)).toBe(g0 + 2);
    await t.db.deleteFrom('ocs_questions').where('id', '=', a!.id).execute();
    expect(await generationOf(t.db)).toBe(g0 + 3);
    // Once per transaction, however many rows and statements it changes.
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('ocs_questions').set({ status: 'verified' }).where('title_hash', 'like', '%').execute();
      await trx.deleteFrom('ocs_questions').where('id', '=', b!.id).execute();
    });
    expect(await generationOf(t.db)).toBe(g0 + 4);
  });

  // Two connections are needed: PostgreSQL only (PGlite runs one transaction at a time).
  (process.env.TEST_DATABASE_URL ? test : test.skip)(
    'two transactions changing the same questions in opposite order do not deadlock on the generation',
    async () => {
      const rows = (
        await upsertQuestions(
          t.db,
          [preparedQuestion(judgement('代数：锁序甲')), preparedQuestion(judgement('代数：锁序乙'))],
          'import',
        )
      ).rows;
      const [a, b] = rows.map((r) => r.id);
      const g = await generationOf(t.db);
      const touch = (trx: Kysely<DB>, id: number) =>
        trx
          .updateTable('ocs_questions')
          .set({ updated_at: sql`now()` })
          .where('id', '=', id)
          .execute();
      const waiters = (n: number) => untilLockWaiters(t.db, n);
      let secondChanged!: () => void;
      const changed = new Promise<void>((resolve) => (secondChanged = resolve));
      // The first changes a, then (once the second changed b, or waits) b, which waits for the
      // second's commit; the second commits once the first waits. Raised at each statement instead
      // of at commit, the second's change of b would wait for the first's generation lock: a deadlock.
      const first = t.db.transaction().execute(async (trx) => {
        await touch(trx, a!);
        await Promise.race([changed, waiters(1)]);
        await touch(trx, b!);
      });
      const second = t.db.transaction().execute(async (trx) => {
        await touch(trx, b!);
        secondChanged();
        await waiters(1);
      });
      await Promise.all([first, second]);
      expect(await generationOf(t.db)).toBe(g + 2);
    },
  );

  test('a charge labelled with the generation of now does not look at the question; any other label does', async () => {
    const [row] = (await upsertQuestions(t.db, [preparedQuestion(judgement('代数：标签题'))], 'import')).rows;
    const id = row!.id;
    const version = await versionOf(t.db, id);
    const g = await generationOf(t.db);
    const charge = (key: string, extra: Partial<ChargeInput>): ChargeInput => ({
      userId: user,
      tokenId: null,
      price: 1,
      key,
      title: key,
      type: 'judgement',
      outcome: 'bank',
      questionId: id,
      modelId: null,
      answer: '正确',
      ...extra,
    });
    // A version that never was, at the generation of now: not looked at, so charged. (Memory never
    // labels a version it did not read at that generation; this shows the row is not read.)
    const now = await chargeManyAt(t.db, [charge('gen-now', { version: 1, generation: g })]);
    expect(now.results[0]).toMatchObject({ status: 'charged' });
    expect(now.generation).toBe(g);
    // Labelled with an older generation, or not labelled: the row is looked at.
    const older = await chargeManyAt(t.db, [
      charge('gen-old-bad', { version: 1, generation: g - 1 }),
      charge('gen-old-good', { version, generation: g - 1 }),
      charge('gen-none-bad', { version: 1 }),
      charge('gen-none-good', { version }),
    ]);
    expect(older.results.map((r) => r.status)).toEqual(['stale', 'charged', 'stale', 'charged']);
    // Changed after it was read at g: the generation moved on, the old label is checked, and refused.
    await t.db
      .updateTable('ocs_questions')
      .set({ answer: JSON.stringify(['错']), updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    const after = await chargeManyAt(t.db, [charge('gen-changed', { version, generation: g })]);
    expect(after.results[0]).toEqual({ status: 'stale' });
    expect(after.generation).toBe(g + 1);
    // A stale element wrote nothing: four charged, each 1 point.
    const balance = await t.db
      .selectFrom('ocs_wallets')
      .select('balance')
      .where('user_id', '=', user)
      .executeTakeFirstOrThrow();
    expect(Number(balance.balance)).toBe(100 - 3);
  });

  test('the check of unlabelled charges reads their questions, not the bank', async () => {
    // A bank of 20,000 and fresh statistics (ANALYZE also makes the session plan the function again).
    await sql`insert into ocs_questions (title, title_hash, options_hash, norm_title, type, answer, source)
              select 'plan ' || g, md5('generation plan ' || g), '', 'plan ' || g, 'single', '["A"]'::jsonb, 'import'
                from generate_series(1, 20000) g`.execute(t.db);
    await sql`analyze ocs_questions`.execute(t.db);
    const picked = (
      await sql<{ id: string; v: string }>`select id, ${VERSION_SQL} as v
          from ocs_questions where title like 'plan %' order by id limit 24`.execute(t.db)
    ).rows;
    const read = await rolledBack(t.db, async (trx) => {
      const seqRead = async () =>
        Number(
          (
            await sql<{
              n: string;
            }>`select pg_stat_get_xact_tuples_returned('ocs_questions'::regclass)::text as n`.execute(trx)
          ).rows[0]!.n,
        );
      const before = await seqRead();
      const charges = picked.map((q, i): ChargeInput => ({
        userId: user,
        tokenId: null,
        price: 0,
        key: `plan-${i}`,
        title: `plan-${i}`,
        type: 'single',
        outcome: 'bank',
        questionId: Number(q.id),
        modelId: null,
        answer: 'A',
        version: Number(q.v),
      }));
      const r = await chargeManyAt(trx, charges);
      expect(r.results.every((x) => x.status === 'charged')).toBe(true);
      return (await seqRead()) - before;
    });
    // Rows a sequential scan returned: none (a hashed subplan would scan all 20,000).
    expect(read).toBeLessThan(100);
  });

  test('an element without a label is checked', async () => {
    const id = Number((await t.db.selectFrom('ocs_questions').select('id').executeTakeFirstOrThrow()).id);
    const r = await sql<{ r_outcome: string; r_generation: string }>`
      select r_outcome, r_generation from ocs_charge_many(array[${user}]::int[], array[null]::int[], array[0]::int[],
        array['unlabelled']::text[], array['unlabelled']::text[], array['single']::text[], array['bank']::text[],
        array[${id}]::bigint[], array[null]::int[], array['["A"]']::text[], array[1]::bigint[], array[null]::text[],
        array[null]::real[], array[0]::int[], array[false]::boolean[], array[null]::bigint[])`.execute(t.db);
    expect(r.rows).toEqual([{ r_outcome: 'stale', r_generation: expect.anything() }]);
    expect(Number(r.rows[0]!.r_generation)).toBe(await generationOf(t.db));
  });
});

describe('in memory', () => {
  test('a confirmation moves a row label forward, never back, and only for the version held', () => {
    const titles = new Map<number, string>([[1, 't']]);
    const x = new ExactIndex((id) => titles.get(id));
    x.put({ id: 1, norm_title: 't', title: 'T', type: 'judgement', options: [], answer: ['对'], version: 10 });
    expect(x.generationOf(1, 10)).toBeUndefined();
    x.confirm(1, 10, 5);
    expect(x.generationOf(1, 10)).toBe(5);
    x.confirm(1, 10, 4);
    expect(x.generationOf(1, 10)).toBe(5);
    x.confirm(1, 11, 9);
    expect(x.generationOf(1, 10)).toBe(5);
    expect(x.generationOf(1, 11)).toBeUndefined();
    x.put({
      id: 1,
      norm_title: 't',
      title: 'T',
      type: 'judgement',
      options: [],
      answer: ['错'],
      version: 11,
      generation: 7,
    });
    expect(x.generationOf(1, 11)).toBe(7);
    expect(x.generationOf(1, 10)).toBeUndefined();
  });

  describe('in the app', () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await startTestApp();
    });
    afterAll(async () => {
      await ctx.close();
    });

    test('rows are read with their generation, and a charge that found one unchanged moves its label on', async () => {
      const rows = await seedQuestions(ctx, [judgement('代数：内存标签题'), judgement('代数：别处改动的题')]);
      const exact = ctx.app.ocs.bank.exact;
      const id = rows[0]!.id;
      const version = exact.lookup(normalizeTitle('代数：内存标签题'))![0]!.version;
      const g = await generationOf(ctx.db);
      expect(exact.generationOf(id, version)).toBe(g);

      // Another question changes (as on another instance): the generation moves on, this row's label
      // does not; its next charge looks at the row, finds it unchanged, and the label follows.
      await ctx.db
        .updateTable('ocs_questions')
        .set({ updated_at: sql`now()` })
        .where('id', '=', rows[1]!.id)
        .execute();
      expect(await generationOf(ctx.db)).toBe(g + 1);
      const { token } = await userWithToken(ctx, 5);
      expect(await ask(ctx, token, '代数：内存标签题', 'judgement')).toMatchObject({
        code: 1,
        answer: '正确',
        cost: 1,
      });
      expect(exact.generationOf(id, version)).toBe(g + 1);
      expect(await ask(ctx, token, '代数：内存标签题', 'judgement')).toMatchObject({ code: 1, cost: 0 });
    });

    test('a page of questions (the batch endpoint) is charged with the labels too, and a changed one is read again', async () => {
      const rows = await seedQuestions(ctx, [
        judgement('代数：整页甲'),
        judgement('代数：整页乙'),
        judgement('代数：整页之外'),
      ]);
      const exact = ctx.app.ocs.bank.exact;
      const versionIn = (title: string) => exact.lookup(normalizeTitle(title))![0]!.version;
      const [va, vb] = [versionIn('代数：整页甲'), versionIn('代数：整页乙')];
      const g = await generationOf(ctx.db);
      // A question outside the page changes: the page's labels are behind; and 乙 changes too.
      await ctx.db
        .updateTable('ocs_questions')
        .set({ updated_at: sql`now()` })
        .where('id', '=', rows[2]!.id)
        .execute();
      await ctx.db
        .updateTable('ocs_questions')
        .set({ answer: JSON.stringify(['错']), updated_at: sql`now()` })
        .where('id', '=', rows[1]!.id)
        .execute();
      expect(await generationOf(ctx.db)).toBe(g + 2);
      const { token } = await userWithToken(ctx, 5);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/ocs/query/batch',
        headers: { authorization: `Bearer ${token}` },
        payload: {
          questions: [
            { title: '代数：整页甲', type: 'judgement' },
            { title: '代数：整页乙', type: 'judgement' },
          ],
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().results).toMatchObject([
        { code: 1, answer: '正确', cost: 1 },
        { code: 1, answer: '错误', cost: 1 },
      ]);
      // 甲 was found unchanged: its label moved on to the generation of now. 乙 was stale at the
      // version memory held, so nothing confirmed that version.
      expect(exact.generationOf(rows[0]!.id, va)).toBe(g + 2);
      expect(exact.generationOf(rows[1]!.id, vb)).not.toBe(g + 2);
    });
  });
});
