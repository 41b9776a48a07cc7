/**
 * Migration 0026 on rows written before it: the query log's answers (pieces joined by #) become JSON
 * arrays of pieces, and a question whose code-like options now have other keys gets its option set's
 * new hash, so importing it again updates it instead of adding a second row.
 */
import { sql } from 'kysely';
import { up } from '../../../server/db/migrations/0026_ocs_answer_pieces';
import { optionsHash, prepareQuestion } from '../../../server/modules/ocs/bank/question';
import { createUser } from '../../../server/modules/user/service';
import { openTestDatabase, type TestDatabase } from '../helpers';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await openTestDatabase();
});
afterAll(async () => {
  await tdb?.close();
});

test('old answers become JSON arrays of their pieces; stale option-set hashes are recomputed', async () => {
  const { db } = tdb;
  const user = await createUser(db, { username: 'migrated', password: 'migrated-pass-1' });
  await db
    .insertInto('ocs_queries')
    .values([
      {
        user_id: user.id,
        title: 't1',
        title_hash: 'k1',
        type: 'multiple',
        outcome: 'bank',
        answer: '北京#上海',
        cost: 1,
      },
      { user_id: user.id, title: 't2', title_hash: 'k2', type: 'judgement', outcome: 'bank', answer: '正确', cost: 1 },
      { user_id: user.id, title: 't3', title_hash: 'k3', type: 'single', outcome: 'miss', answer: null, cost: 0 },
    ])
    .execute();
  const p = prepareQuestion({
    title: '迁移：声明语句',
    type: 'single',
    options: ['int a; int b;', 'int a b;'],
    answer: ['A'],
  });
  if ('error' in p) throw new Error(p.error);
  const prose = prepareQuestion({ title: '迁移：城市', type: 'single', options: ['北京', '上海'], answer: ['A'] });
  if ('error' in prose) throw new Error(prose.error);
  const rows = [p, prose].map((q) => ({
    title_hash: q.title_hash,
    options_hash: q === p ? 'hash-before-0026' : q.options_hash,
    norm_title: q.norm_title,
    title: q.title,
    type: q.type,
    options: JSON.stringify(q.options),
    answer: JSON.stringify(q.answer),
    source: 'import' as const,
  }));
  await db.insertInto('ocs_questions').values(rows).execute();

  await up(db);

  const answers = await db.selectFrom('ocs_queries').select(['title', 'answer']).orderBy('title').execute();
  expect(answers.map((a) => [a.title, a.answer === null ? null : JSON.parse(a.answer)])).toEqual([
    ['t1', ['北京', '上海']],
    ['t2', ['正确']],
    ['t3', null],
  ]);
  const hashes = await sql<{ title: string; options_hash: string }>`
    select title, options_hash from ocs_questions where title like '迁移：%' order by title`.execute(db);
  expect(hashes.rows).toEqual([
    { title: '迁移：城市', options_hash: optionsHash(['北京', '上海']) },
    { title: '迁移：声明语句', options_hash: optionsHash(['int a; int b;', 'int a b;']) },
  ]);
});
