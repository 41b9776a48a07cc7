/**
 * Reports of wrong answers and their review: a user reports an answer of their own history
 * (portal or script token), never one they were not given; the daily limit; weights that fall with
 * rejections; 存疑 after several independent reports (lower confidence, or no answer); accepting a
 * correction (bank answer, history, one refund per charged reporter, idempotent — twice, concurrently),
 * rejecting, merging duplicates, in bulk, and every refusal leaving everything as it was.
 */
import { sql } from 'kysely';
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { prepareQuestion, type QuestionInput } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { refundQuery } from '../../../server/modules/ocs/review/reports';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { userWithToken } from './admin-fixtures';

let ctx: TestContext;
let admin: Client;
const ids = new Map<string, number>();

const q = (title: string, options = ['甲', '乙', '丙'], answer = ['A']): QuestionInput => ({
  title,
  type: 'single',
  options,
  answer,
});
const BANK: QuestionInput[] = [
  q('纠错一：被多人反馈的题目'),
  q('纠错二：会被驳回的题目'),
  q('纠错三：重复题（目标）'),
  q('纠错三：重复题（副本）'),
  q('纠错四：批量采纳甲'),
  q('纠错四：批量采纳乙'),
  q('纠错五：存疑后不作答'),
  q('纠错六：脚本反馈'),
  q('纠错七：每日上限'),
];
const ask = (token: string, title: string) =>
  ctx.app
    .inject({
      method: 'GET',
      url: '/api/ocs/query',
      query: { token, title, type: 'single', options: 'A. 甲\nB. 乙\nC. 丙' },
    })
    .then((r) => r.json());
const balanceOf = async (uid: number) =>
  Number(
    (await ctx.db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', uid).executeTakeFirst())?.balance ??
      0,
  );
const ledgerOf = (uid: number) =>
  ctx.db
    .selectFrom('ocs_ledger')
    .select(['kind', 'amount', 'query_id'])
    .where('user_id', '=', uid)
    .orderBy('id')
    .execute();
const report = (client: Client, body: object) => client.post('/api/ocs/reports', body);
const questionRow = (id: number) =>
  ctx.db.selectFrom('ocs_questions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin'])).client;
  const rows = (
    await upsertQuestions(
      ctx.db,
      BANK.map((b) => prepareQuestion(b) as Exclude<ReturnType<typeof prepareQuestion>, { error: string }>),
      'import',
    )
  ).rows;
  rows.forEach((r, i) => {
    ids.set(BANK[i]!.title, r.id);
    ctx.app.ocs.bank.index.add(r.id, r.norm_title);
  });
  await ctx.app.ocs.bank.settled();
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
});
afterAll(async () => {
  await ctx.close();
});

/** A user who asked `title` (charged 1 point) and may report it. */
async function asker(title: string, balance = 10) {
  const u = await userWithToken(ctx, balance);
  const res = await ask(u.token, title);
  expect(res).toMatchObject({ code: 1, cost: 1 });
  return { ...u, queryId: res.queryId as number };
}

test('a report of an answer in the user’s history: taken once, shown in the history; the bad cases refuse and change nothing', async () => {
  const a = await asker('纠错一：被多人反馈的题目');
  const other = await userWithToken(ctx, 10);
  const ctxRes = await a.client.get(`/api/ocs/queries/${a.queryId}/report`);
  expect(ctxRes.json().data).toMatchObject({
    query: { id: a.queryId, answer: ['A. 甲'], report: null },
    question: { options: ['甲', '乙', '丙'], answer: ['甲'] },
    report: null,
    refusal: null,
  });
  // Someone else's query: as if it did not exist.
  expect((await report(other.client, { queryId: a.queryId })).statusCode).toBe(404);
  // A query without an answer.
  const miss = await ask(other.token, '纠错：题库里没有这道题');
  expect(miss.code).toBe(0);
  const missId = Number(
    (await ctx.db.selectFrom('ocs_queries').select('id').where('user_id', '=', other.uid).executeTakeFirstOrThrow()).id,
  );
  const noAnswer = await report(other.client, { queryId: missId });
  expect(noAnswer.statusCode).toBe(400);
  expect(noAnswer.json().errorMessage).toBe('这次查询没有给出答案，无需反馈');
  // A proposal that is not an option, or is the current answer.
  const bad = await report(a.client, { queryId: a.queryId, proposed: '丁' });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().data.proposed).toBeDefined();
  expect((await report(a.client, { queryId: a.queryId, proposed: 'A' })).statusCode).toBe(400);
  expect((await report(a.client, { queryId: 'x' })).statusCode).toBe(400);
  expect(await ctx.db.selectFrom('ocs_reports').select('id').execute()).toEqual([]);

  const ok = await report(a.client, { queryId: a.queryId, proposed: 'b', reason: '教材第三章' });
  expect(ok.statusCode).toBe(200);
  expect(ok.json().data).toMatchObject({ status: 'open', proposed: ['乙'], reason: '教材第三章', refunded: 0 });
  const twice = await report(a.client, { queryId: a.queryId, proposed: 'C' });
  expect(twice.statusCode).toBe(409);
  expect(twice.json().errorMessage).toBe('这条答案已经反馈过了');
  const history = (await a.client.get('/api/ocs/queries')).json().data;
  expect(history[0]).toMatchObject({
    id: a.queryId,
    source: 'import',
    confidence: 0.95,
    report: { status: 'open', refunded: 0 },
  });
});

test('several independent reports mark the answer 存疑: answered with lower confidence, or not at all', async () => {
  const title = '纠错一：被多人反馈的题目';
  const id = ids.get(title)!;
  // The first report (previous test) weighs 1; two more independent users reach the threshold of 3.
  for (const proposed of ['B', 'C']) {
    const u = await asker(title);
    expect((await report(u.client, { queryId: u.queryId, proposed })).statusCode).toBe(200);
  }
  expect((await questionRow(id)).disputed).toBe(true);
  const later = await userWithToken(ctx, 10);
  expect(await ask(later.token, title)).toMatchObject({
    code: 1,
    answer: JSON.stringify(['A. 甲']),
    source: 'import',
    confidence: 0.475,
  });

  // The administrators' other choice: not answered until reviewed (free).
  const other = ids.get('纠错五：存疑后不作答')!;
  await ctx.db
    .updateTable('ocs_questions')
    .set({ disputed: true, updated_at: sql`now()` })
    .where('id', '=', other)
    .execute();
  ctx.app.ocs.bank.index.add(other, (await questionRow(other)).norm_title);
  await ctx.app.ocs.bank.settled();
  const saved = await admin.request({
    method: 'PUT',
    url: '/api/ocs/admin/settings',
    payload: { ...(await admin.get('/api/ocs/admin/settings')).json().data, disputedMode: 'refuse' },
  });
  expect(saved.statusCode).toBe(200);
  const u = await userWithToken(ctx, 10);
  expect(await ask(u.token, '纠错五：存疑后不作答')).toEqual({
    code: 0,
    msg: expect.stringMatching(/^题库中未找到该题/),
  });
  expect(await balanceOf(u.uid)).toBe(10);
  await admin.request({
    method: 'PUT',
    url: '/api/ocs/admin/settings',
    payload: { ...(await admin.get('/api/ocs/admin/settings')).json().data, disputedMode: 'lower' },
  });
});

test('accepting a correction: new answer, history, one refund per charged reporter; twice refunds nothing more', async () => {
  const title = '纠错一：被多人反馈的题目';
  const id = ids.get(title)!;
  const queue = (await admin.get('/api/ocs/admin/reviews')).json();
  const item = queue.data.find((r: { questionId: number }) => r.questionId === id);
  expect(item).toMatchObject({ disputed: true, openReports: 3, openWeight: 3, answer: ['甲'], provenance: 'import' });
  expect(item.proposals).toEqual([
    { answer: ['乙'], count: 2, weight: 2 },
    { answer: ['丙'], count: 1, weight: 1 },
  ]);
  const reporters = await ctx.db
    .selectFrom('ocs_reports')
    .select(['user_id', 'query_id'])
    .where('question_id', '=', id)
    .execute();
  const before = await Promise.all(reporters.map((r) => balanceOf(r.user_id)));

  const bad = await admin.post('/api/ocs/admin/reviews/accept', {
    items: [{ questionId: id, answer: ['丁'] }],
    reason: '核对',
  });
  expect(bad.statusCode).toBe(400);
  expect((await questionRow(id)).answer).toEqual(['甲']);
  expect(
    (await admin.post('/api/ocs/admin/reviews/accept', { items: [{ questionId: id, answer: ['B'] }] })).statusCode,
  ).toBe(400);
  // Accepting keeps nothing as it was: the same answer is a rejection, not an acceptance with refunds.
  const same = await admin.post('/api/ocs/admin/reviews/accept', {
    items: [{ questionId: id, answer: ['A'] }],
    reason: '原答案没错',
  });
  expect(same.statusCode).toBe(400);
  expect(same.json()).toMatchObject({
    errorMessage: expect.stringContaining('驳回'),
    data: { answer: [expect.any(String)] },
  });
  expect(await Promise.all(reporters.map((r) => balanceOf(r.user_id)))).toEqual(before);
  expect(await ctx.db.selectFrom('ocs_reports').select('status').where('question_id', '=', id).execute()).toEqual(
    reporters.map(() => ({ status: 'open' })),
  );

  const res = await admin.post('/api/ocs/admin/reviews/accept', {
    items: [{ questionId: id, answer: ['B'] }],
    reason: '教材第三章原文',
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toEqual({ questions: 1, reports: 3, refunds: 3, refunded: 3 });
  expect(await questionRow(id)).toMatchObject({
    answer: ['乙'],
    source: 'corrected',
    status: 'verified',
    disputed: false,
  });
  for (const [i, r] of reporters.entries()) {
    expect(await balanceOf(r.user_id)).toBe(before[i]! + 1);
    const refunds = (await ledgerOf(r.user_id)).filter((l) => l.kind === 'refund');
    expect(refunds).toEqual([{ kind: 'refund', amount: 1, query_id: r.query_id }]);
  }
  const detail = (await admin.get(`/api/ocs/admin/reviews/${id}`)).json().data;
  expect(detail.question).toMatchObject({ answer: ['乙'], provenance: 'corrected' });
  expect(
    detail.reports.every((r: { status: string; refunded: number }) => r.status === 'accepted' && r.refunded === 1),
  ).toBe(true);
  expect(detail.history[0]).toMatchObject({
    action: 'correct',
    before: { answer: ['甲'], source: 'import' },
    after: { answer: ['乙'], source: 'corrected' },
    reason: '教材第三章原文',
  });
  expect(detail.history.some((h: { action: string }) => h.action === 'dispute')).toBe(true);

  // Twice: nothing left to accept, nobody paid again.
  const again = await admin.post('/api/ocs/admin/reviews/accept', {
    items: [{ questionId: id, answer: ['C'] }],
    reason: '再来',
  });
  expect(again.statusCode).toBe(409);
  expect((await questionRow(id)).answer).toEqual(['乙']);
  for (const [i, r] of reporters.entries()) expect(await balanceOf(r.user_id)).toBe(before[i]! + 1);

  // The next asker gets the corrected answer; the reporter sees the outcome in their history.
  const u = await userWithToken(ctx, 10);
  expect(await ask(u.token, title)).toMatchObject({
    code: 1,
    answer: JSON.stringify(['B. 乙']),
    source: 'corrected',
    confidence: 0.97,
  });
  const reporter = reporters[0]!;
  const ledger = await ctx.db
    .selectFrom('ocs_ledger')
    .select(['query_id'])
    .where('user_id', '=', reporter.user_id)
    .where('kind', '=', 'refund')
    .executeTakeFirstOrThrow();
  expect(Number(ledger.query_id)).toBe(Number(reporter.query_id));
});

test('a refund applied twice, or twice at once, is booked once', async () => {
  const a = await asker('纠错六：脚本反馈');
  const r = { userId: a.uid, queryId: a.queryId, amount: 1, memo: '测试退款', actorId: null };
  expect(await refundQuery(ctx.db, r)).toBe(1);
  expect(await refundQuery(ctx.db, r)).toBe(0);
  const both = await Promise.all([refundQuery(ctx.db, r), refundQuery(ctx.db, r)]);
  expect(both).toEqual([0, 0]);
  const b = await asker('纠错六：脚本反馈');
  const concurrent = await Promise.all([
    refundQuery(ctx.db, { ...r, userId: b.uid, queryId: b.queryId }),
    refundQuery(ctx.db, { ...r, userId: b.uid, queryId: b.queryId }),
  ]);
  expect(concurrent.sort()).toEqual([0, 1]);
  for (const u of [a, b]) {
    expect((await ledgerOf(u.uid)).filter((l) => l.kind === 'refund')).toHaveLength(1);
    expect(await balanceOf(u.uid)).toBe(10);
  }
});

test('rejecting: the answer stays, the 存疑 mark goes, and the reporter’s next report weighs less', async () => {
  const title = '纠错二：会被驳回的题目';
  const id = ids.get(title)!;
  const a = await asker(title);
  expect((await report(a.client, { queryId: a.queryId, proposed: 'C' })).json().data).toMatchObject({ status: 'open' });
  expect((await admin.post('/api/ocs/admin/reviews/reject', { questionIds: [id] })).statusCode).toBe(400);
  const res = await admin.post('/api/ocs/admin/reviews/reject', { questionIds: [id], reason: '原答案正确' });
  expect(res.json().data).toEqual({ questions: 1, reports: 1 });
  expect(await questionRow(id)).toMatchObject({ answer: ['甲'], disputed: false });
  expect((await admin.post('/api/ocs/admin/reviews/reject', { questionIds: [id], reason: '再驳回' })).statusCode).toBe(
    409,
  );
  expect((await a.client.get('/api/ocs/queries')).json().data[0].report).toEqual({ status: 'rejected', refunded: 0 });
  // One rejection: the next report counts a third.
  const again = await ask(a.token, '纠错三：重复题（目标）');
  await report(a.client, { queryId: again.queryId });
  const weight = await ctx.db
    .selectFrom('ocs_reports')
    .select('weight')
    .where('query_id', '=', again.queryId)
    .executeTakeFirstOrThrow();
  expect(weight.weight).toBeCloseTo(1 / 3, 3);
});

test('merging duplicates: their reports join the target, the duplicate leaves the bank, history on both', async () => {
  const target = ids.get('纠错三：重复题（目标）')!;
  const copy = ids.get('纠错三：重复题（副本）')!;
  const u = await asker('纠错三：重复题（副本）');
  await report(u.client, { queryId: u.queryId, proposed: 'B' });
  expect(
    (await admin.post('/api/ocs/admin/reviews/merge', { targetId: target, sourceIds: [target], reason: 'x' }))
      .statusCode,
  ).toBe(400);
  expect(
    (await admin.post('/api/ocs/admin/reviews/merge', { targetId: target, sourceIds: [999999], reason: 'x' }))
      .statusCode,
  ).toBe(404);
  const res = await admin.post('/api/ocs/admin/reviews/merge', {
    targetId: target,
    sourceIds: [copy],
    reason: '同一题',
  });
  expect(res.json().data).toEqual({ merged: 1, reports: 1 });
  expect(
    await ctx.db.selectFrom('ocs_questions').select('id').where('id', '=', copy).executeTakeFirst(),
  ).toBeUndefined();
  const detail = (await admin.get(`/api/ocs/admin/reviews/${target}`)).json().data;
  expect(detail.reports.map((r: { mergedFrom: number | null }) => r.mergedFrom)).toContain(copy);
  expect(detail.history[0]).toMatchObject({ action: 'merge', before: { mergedId: copy }, reason: '同一题' });
  const gone = await ctx.db
    .selectFrom('ocs_question_history')
    .select('action')
    .where('question_id', '=', copy)
    .execute();
  expect(gone.map((h) => h.action)).toEqual(['merged_into']);
});

test('bulk accept: all or nothing when one answer is invalid; then both at once', async () => {
  const [x, y] = ['纠错四：批量采纳甲', '纠错四：批量采纳乙'].map((t) => ids.get(t)!);
  for (const t of ['纠错四：批量采纳甲', '纠错四：批量采纳乙']) {
    const u = await asker(t);
    await report(u.client, { queryId: u.queryId, proposed: 'C' });
  }
  const bad = await admin.post('/api/ocs/admin/reviews/accept', {
    items: [
      { questionId: x, answer: ['C'] },
      { questionId: y, answer: ['戊'] },
    ],
    reason: '批量',
  });
  expect(bad.statusCode).toBe(400);
  expect((await questionRow(x)).answer).toEqual(['甲']);
  const ok = await admin.post('/api/ocs/admin/reviews/accept', {
    items: [
      { questionId: x, answer: ['C'] },
      { questionId: y, answer: ['丙'] },
    ],
    reason: '批量',
  });
  expect(ok.json().data).toEqual({ questions: 2, reports: 2, refunds: 2, refunded: 2 });
  expect((await questionRow(y)).answer).toEqual(['丙']);
});

test('the script reports with its token, by answer id or by asking the question; never an answer it was not given', async () => {
  const title = '纠错六：脚本反馈';
  const u = await asker(title);
  const post = (payload: object, token?: string) =>
    ctx.app
      .inject({
        method: 'POST',
        url: '/api/ocs/report',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload,
      })
      .then((r) => ({ status: r.statusCode, body: r.json(), cors: r.headers['access-control-allow-origin'] }));
  expect(await post({ queryId: u.queryId })).toMatchObject({
    status: 200,
    body: { code: 0, msg: expect.stringMatching(/令牌/) },
  });
  const stranger = await userWithToken(ctx, 10);
  expect((await post({ queryId: u.queryId }, stranger.token)).body).toEqual({ code: 0, msg: '没有找到这条查询记录' });
  expect((await post({ title, type: 'single', options: 'A. 甲\nB. 乙\nC. 丙' }, stranger.token)).body).toEqual({
    code: 0,
    msg: '你没有查询过这道题（或没有得到答案），无法反馈',
  });
  expect((await post({ queryId: -3 }, u.token)).body).toEqual({ code: 0, msg: 'queryId 无效' });
  const byQuestion = await post(
    { title: `1. ${title}`, type: 'single', options: 'A、甲\nB、乙\nC、丙', proposed: '乙' },
    u.token,
  );
  expect(byQuestion).toMatchObject({ status: 200, cors: '*', body: { code: 1 } });
  expect((await post({ queryId: u.queryId }, u.token)).body).toEqual({ code: 0, msg: '这条答案已经反馈过了' });
  const stored = await ctx.db
    .selectFrom('ocs_reports')
    .select(['query_id', 'proposed'])
    .where('user_id', '=', u.uid)
    .executeTakeFirstOrThrow();
  expect({ queryId: Number(stored.query_id), proposed: stored.proposed }).toEqual({
    queryId: u.queryId,
    proposed: ['乙'],
  });
});

test('reports are limited per user and day', async () => {
  const data = (await admin.get('/api/ocs/admin/settings')).json().data;
  await admin.request({ method: 'PUT', url: '/api/ocs/admin/settings', payload: { ...data, reportDailyLimit: 1 } });
  const u = await userWithToken(ctx, 10);
  const first = await ask(u.token, '纠错七：每日上限');
  const second = await ask(u.token, '纠错四：批量采纳甲');
  expect((await report(u.client, { queryId: first.queryId })).statusCode).toBe(200);
  const limited = await report(u.client, { queryId: second.queryId });
  expect(limited.statusCode).toBe(429);
  expect(limited.json().errorMessage).toBe('今天的反馈次数已达上限（1 次），请明天再来');
  await admin.request({ method: 'PUT', url: '/api/ocs/admin/settings', payload: data });
});
