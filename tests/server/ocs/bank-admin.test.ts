/**
 * Question-bank administration through the API: search and filters, edit (re-validated, 409 on a
 * duplicate), delete, verified/wrong (wrong leaves matching), statistics, export that imports back
 * unchanged, and the audit rows behind every change.
 */
import { sql } from 'kysely';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { ask, importFile, userWithToken } from './admin-fixtures';

let ctx: TestContext;
let admin: Client;
let adminName: string;

const BANK = [
  { title: '中华人民共和国的首都是哪座城市？', type: 'single', options: ['上海', '北京', '广州', '深圳'], answer: 'B' },
  { title: '下列属于哺乳动物的有', type: 'multiple', options: ['鲸', '鲨鱼', '蝙蝠', '企鹅'], answer: 'AC' },
  { title: '地球绕太阳公转一周约需 365 天。', type: 'judgement', answer: '正确' },
  { title: '水的化学式是____，氧气的化学式是____。', type: 'completion', answer: 'H2O#O2' },
  { title: '编程语言 100% 兼容 C 的是', type: 'single', options: ['C#', 'C++', 'Java'], answer: 'C++' },
  // An answer holding the `#` that answers are split on: exported as its letter.
  { title: '微软推出的面向 .NET 平台的语言是', type: 'single', options: ['C#', 'C++', 'Java'], answer: 'A' },
];

beforeAll(async () => {
  ctx = await startTestApp();
  ({ client: admin, username: adminName } = await loggedInClient(ctx, ['admin']));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.deleteFrom('ocs_questions').execute();
  await importFile(admin, JSON.stringify(BANK), 'seed.json');
});

const idOf = async (title: string) =>
  Number(
    (await ctx.db.selectFrom('ocs_questions').select('id').where('title', '=', title).executeTakeFirstOrThrow()).id,
  );
const list = (qs: string) => admin.get(`/api/ocs/admin/bank/questions?${qs}`).then((r) => r.json());
const lastAudit = (action: string) =>
  ctx.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

describe('search', () => {
  it('filters by keyword (wildcards literal), type, source and status, with paging', async () => {
    const all = await list('current=1&pageSize=4');
    expect(all).toMatchObject({ success: true, total: 6, current: 1, pageSize: 4 });
    expect(all.data).toHaveLength(4);
    expect((await list('keyword=首都')).data.map((q: { title: string }) => q.title)).toEqual([
      '中华人民共和国的首都是哪座城市？',
    ]);
    // % is a literal character, not "anything".
    expect((await list(`keyword=${encodeURIComponent('100%')}`)).total).toBe(1);
    expect((await list(`keyword=${encodeURIComponent('%')}`)).total).toBe(1);
    expect((await list('type=judgement')).data[0]).toMatchObject({
      type: 'judgement',
      answer: ['正确'],
      source: 'import',
      status: 'verified',
    });
    expect((await list('source=ai')).total).toBe(0);
    expect((await list('status=wrong')).total).toBe(0);
    expect((await admin.get('/api/ocs/admin/bank/questions?status=bogus')).statusCode).toBe(400);
  });

  it('sorts by hits', async () => {
    await sql`insert into ocs_question_hits (question_id, hits)
              select id, 9 from ocs_questions where title = '下列属于哺乳动物的有'`.execute(ctx.db);
    const r = await list('sortBy=hits&order=descend');
    expect(r.data[0]).toMatchObject({ title: '下列属于哺乳动物的有', hitCount: 9 });
    // Questions never hit count 0 and come last.
    expect(r.data.slice(1).every((q: { hitCount: number }) => q.hitCount === 0)).toBe(true);
    const up = await list('sortBy=hits&order=ascend');
    expect(up.data[up.data.length - 1]).toMatchObject({ title: '下列属于哺乳动物的有', hitCount: 9 });
    // One question's page shows its count too.
    const id = r.data[0].id as number;
    expect((await admin.get(`/api/ocs/admin/bank/questions/${id}`)).json().data.hitCount).toBe(9);
  });
});

describe('edit', () => {
  it('re-validates, stores option texts, answers with the new answer at once, and audits the change', async () => {
    const id = await idOf('中华人民共和国的首都是哪座城市？');
    const res = await admin.request({
      method: 'PUT',
      url: `/api/ocs/admin/bank/questions/${id}`,
      payload: {
        title: '中华人民共和国的首都是哪座城市？',
        type: 'single',
        options: ['上海', '北京', '广州', '深圳'],
        answer: ['D'],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, answer: ['深圳'] });
    const { token } = await userWithToken(ctx, 5);
    expect(
      await ask(ctx, token, '中华人民共和国的首都是哪座城市', 'single', 'A. 上海\nB. 北京\nC. 广州\nD. 深圳'),
    ).toMatchObject({ code: 1, answer: JSON.stringify(['D. 深圳']) });
    const audit = await lastAudit('ocs.bank.edit');
    expect(audit).toMatchObject({
      actor_name: adminName,
      target_type: 'ocs_question',
      target_id: String(id),
      before: { answer: ['北京'] },
      after: { answer: ['深圳'] },
    });

    const bad = await admin.request({
      method: 'PUT',
      url: `/api/ocs/admin/bank/questions/${id}`,
      payload: { title: '首都', type: 'single', options: ['上海', '北京'], answer: ['E'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errorMessage).toContain('答案不在选项中');
    const missing = await admin.request({
      method: 'PUT',
      url: '/api/ocs/admin/bank/questions/999999',
      payload: { title: 'x', type: 'judgement', answer: ['对'] },
    });
    expect(missing.statusCode).toBe(404);
  });

  it("refuses with 409 when the edit would make it another row's question, changing nothing", async () => {
    const id = await idOf('下列属于哺乳动物的有');
    const res = await admin.request({
      method: 'PUT',
      url: `/api/ocs/admin/bank/questions/${id}`,
      payload: {
        title: '【单选题】中华人民共和国的首都是哪座城市',
        type: 'single',
        options: ['深圳', '广州', '北京', '上海'],
        answer: ['北京'],
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errorMessage).toContain('已有题目');
    const row = await ctx.db.selectFrom('ocs_questions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: '下列属于哺乳动物的有', answer: ['鲸', '蝙蝠'] });
  });
});

describe('verification and deletion', () => {
  it('wrong removes a question from matching, verified brings it back; both audited', async () => {
    const id = await idOf('地球绕太阳公转一周约需 365 天。');
    await ctx.db
      .updateTable('ocs_questions')
      .set({ source: 'ai', status: 'unverified' })
      .where('id', '=', id)
      .execute();
    const { token } = await userWithToken(ctx, 10);
    expect(await ask(ctx, token, '地球绕太阳公转一周约需365天', 'judgement')).toMatchObject({
      code: 1,
      answer: '正确',
    });

    const wrong = await admin.post(`/api/ocs/admin/bank/questions/${id}/status`, { status: 'wrong' });
    expect(wrong.json().data).toMatchObject({ id, status: 'wrong', source: 'ai' });
    // Another user, so the 10-minute cache of the first one plays no part.
    const { token: t2 } = await userWithToken(ctx, 10);
    expect(await ask(ctx, t2, '地球绕太阳公转一周约需365天', 'judgement')).toMatchObject({ code: 0 });
    expect(await ask(ctx, t2, '地球绕太阳公转一周约需 365', 'judgement')).toMatchObject({ code: 0 }); // nor fuzzy
    expect(await lastAudit('ocs.bank.status')).toMatchObject({
      target_id: String(id),
      before: { status: 'unverified' },
      after: { status: 'wrong' },
    });

    const verified = await admin.post(`/api/ocs/admin/bank/questions/${id}/status`, { status: 'verified' });
    expect(verified.json().data.status).toBe('verified');
    const { token: t3 } = await userWithToken(ctx, 10);
    expect(await ask(ctx, t3, '地球绕太阳公转一周约需365天', 'judgement')).toMatchObject({ code: 1, answer: '正确' });
    expect(await lastAudit('ocs.bank.status')).toMatchObject({
      before: { status: 'wrong' },
      after: { status: 'verified' },
    });
    expect((await admin.post(`/api/ocs/admin/bank/questions/${id}/status`, { status: 'bogus' })).statusCode).toBe(400);
  });

  it('deletes with an audit row holding what was deleted', async () => {
    const id = await idOf('水的化学式是____，氧气的化学式是____。');
    const res = await admin.request({ method: 'DELETE', url: `/api/ocs/admin/bank/questions/${id}` });
    expect(res.statusCode).toBe(200);
    expect((await admin.get(`/api/ocs/admin/bank/questions/${id}`)).statusCode).toBe(404);
    expect(await lastAudit('ocs.bank.delete')).toMatchObject({
      target_id: String(id),
      before: { answer: ['H2O', 'O2'], type: 'completion' },
    });
    expect((await admin.request({ method: 'DELETE', url: `/api/ocs/admin/bank/questions/${id}` })).statusCode).toBe(
      404,
    );
  });
});

test('statistics: size, by source and status, most-hit first', async () => {
  await ctx.db
    .updateTable('ocs_questions')
    .set({ source: 'ai', status: 'unverified' })
    .where('type', '=', 'judgement')
    .execute();
  const { token } = await userWithToken(ctx, 10);
  for (const t of ['中华人民共和国的首都是哪座城市', '下列属于哺乳动物的有']) await ask(ctx, token, t);
  await ask(ctx, (await userWithToken(ctx, 10)).token, '下列属于哺乳动物的有');
  await ctx.app.ocs.hits.flush();
  const s = (await admin.get('/api/ocs/admin/bank/stats')).json().data;
  expect(s).toMatchObject({
    total: 6,
    bySource: { import: 5, manual: 0, ai: 1 },
    byStatus: { verified: 5, unverified: 1, wrong: 0 },
  });
  expect(s.topHits.map((q: { title: string; hitCount: number }) => [q.title, q.hitCount])).toEqual([
    ['下列属于哺乳动物的有', 2],
    ['中华人民共和国的首都是哪座城市？', 1],
  ]);
});

test.each(['json', 'csv'] as const)('export as %s imports back unchanged', async (format) => {
  const res = await admin.get(`/api/ocs/admin/bank/export?format=${format}`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-disposition']).toContain(`.${format}`);
  const snapshot = async () =>
    await ctx.db
      .selectFrom('ocs_questions')
      .select(['title', 'type', 'options', 'answer', 'title_hash', 'options_hash'])
      .orderBy('title')
      .execute();
  const before = await snapshot();
  if (format === 'json') {
    const items = JSON.parse(res.body);
    expect(items).toHaveLength(6);
    expect(items).toContainEqual({
      title: '微软推出的面向 .NET 平台的语言是',
      type: 'single',
      options: ['C#', 'C++', 'Java'],
      answer: ['A'],
    });
    expect(items).toContainEqual({
      title: '下列属于哺乳动物的有',
      type: 'multiple',
      options: ['鲸', '鲨鱼', '蝙蝠', '企鹅'],
      answer: ['鲸', '蝙蝠'],
    });
  } else {
    expect(res.body.startsWith('\uFEFF题目,题型,选项,答案\r\n')).toBe(true);
    expect(res.body).toContain('下列属于哺乳动物的有,multiple,"鲸\n鲨鱼\n蝙蝠\n企鹅",鲸#蝙蝠\r\n');
  }

  await ctx.db.deleteFrom('ocs_questions').execute();
  const { preview, job } = await importFile(admin, res.rawPayload, `export.${format}`);
  expect(preview).toMatchObject({ total: 6, valid: 6, rejected: 0 });
  expect(job).toMatchObject({ inserted: 6 });
  expect(await snapshot()).toEqual(before);
  // A second import of the export is a no-op update.
  expect((await importFile(admin, res.rawPayload, `export.${format}`)).job).toMatchObject({ inserted: 0, updated: 6 });
  expect(await lastAudit('ocs.bank.export')).toMatchObject({ after: { format } });
});

test('the CSV export writes formulas as text and keeps `#` inside blanks; it still imports back unchanged', async () => {
  await ctx.db.deleteFrom('ocs_questions').execute();
  const file = [
    { title: '=HYPERLINK("http://evil.example/","点我")', type: 'single', options: ['+1', '-1', '@x'], answer: 'A' },
    { title: '微软的语言是____，空循环写作____', type: 'completion', answer: ['C#', 'for(;;);'] },
  ];
  expect((await importFile(admin, JSON.stringify(file), 'formulas.json')).job).toMatchObject({ inserted: 2 });
  const snapshot = () =>
    ctx.db.selectFrom('ocs_questions').select(['title', 'type', 'options', 'answer']).orderBy('title').execute();
  const before = await snapshot();
  const res = await admin.get('/api/ocs/admin/bank/export?format=csv');
  expect(res.statusCode).toBe(200);
  const lines = res.body.split('\r\n');
  // A spreadsheet shows these cells as text: none begins with = + - @.
  expect(lines.some((l) => /(^|,)"?[=+\-@]/.test(l))).toBe(false);
  expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example/"",""点我"")"`);
  expect(res.body).toContain('"[""C#"",""for(;;);""]"');
  await ctx.db.deleteFrom('ocs_questions').execute();
  expect((await importFile(admin, res.rawPayload, 'export.csv')).job).toMatchObject({ inserted: 2 });
  expect(await snapshot()).toEqual(before);
});
