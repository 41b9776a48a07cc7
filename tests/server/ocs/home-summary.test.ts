/**
 * The home page's OCS card (GET /api/ocs/home-summary): a user's own balance and today's queries, never
 * another's; administrators also get the review work (questions with open reports, open 未收录 entries,
 * this instance's import jobs), each figure right after the change that makes it.
 */
import { writeSettings } from '../../../server/modules/ocs/admin/settings';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { ask, csv, seedQuestions, upload, userWithToken, waitForJob } from './admin-fixtures';

let ctx: TestContext;
let admin: Client;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin'])).client;
  await seedQuestions(ctx, [{ title: '首页摘要：题库里的题', type: 'single', options: ['甲', '乙'], answer: ['A'] }]);
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
});
afterAll(async () => {
  await ctx.close();
});

const summary = async (client: Client) => {
  const res = await client.get('/api/ocs/home-summary');
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

test('a visitor is refused', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/ocs/home-summary' });
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ success: false });
});

test('a user sees their own balance and today’s queries, at once after each query, and no administrator figures', async () => {
  const me = await userWithToken(ctx, 7);
  const other = await userWithToken(ctx, 50);
  expect(await summary(me.client)).toEqual({ balance: 7, todayQueries: 0, admin: null });

  expect(await ask(ctx, me.token, '首页摘要：题库里的题', 'single', 'A. 甲\nB. 乙')).toMatchObject({ code: 1 });
  expect(await summary(me.client)).toEqual({ balance: 6, todayQueries: 1, admin: null });

  // Another user's queries count for them only.
  await ask(ctx, other.token, '首页摘要：题库里的题', 'single', 'A. 甲\nB. 乙');
  await ask(ctx, other.token, '首页摘要：题库里没有的题');
  expect(await summary(me.client)).toEqual({ balance: 6, todayQueries: 1, admin: null });
  expect(await summary(other.client)).toMatchObject({ balance: 49, todayQueries: 2, admin: null });
});

test('an administrator sees reports waiting and the 未收录 queue grow at once, and their own wallet', async () => {
  const before = (await summary(admin)).admin;
  expect(before).toEqual({
    reviewsWaiting: expect.any(Number),
    missesOpen: expect.any(Number),
    importsRunning: 0,
    importsFailed: 0,
  });

  const u = await userWithToken(ctx, 10);
  // A miss is counted in memory first; the summary shows it without waiting for the next flush.
  expect((await ask(ctx, u.token, '首页摘要：一道新的未收录题')).code).toBe(0);
  expect((await summary(admin)).admin).toMatchObject({ missesOpen: before.missesOpen + 1 });

  const hit = await ask(ctx, u.token, '首页摘要：题库里的题', 'single', 'A. 甲\nB. 乙');
  const reported = await u.client.post('/api/ocs/reports', { queryId: hit.queryId, proposed: 'B' });
  expect(reported.statusCode).toBe(200);
  expect((await summary(admin)).admin).toMatchObject({ reviewsWaiting: before.reviewsWaiting + 1 });

  // The administrator's own figures are theirs: no balance, no queries.
  expect(await summary(admin)).toMatchObject({ balance: 0, todayQueries: 0 });
  // The plain user still sees no administrator figures.
  expect((await summary(u.client)).admin).toBeNull();
});

test('a bank import that fails is counted until it is forgotten, one that succeeds is not, and its administrator is told how each ended', async () => {
  const file = csv([
    ['题目', '题型', '选项', '答案'],
    ['首页摘要：导入的题', '单选题', '甲\n乙', 'A'],
  ]);
  const good = (await upload(admin, file, 'good.csv')).json().data;
  const job = (await admin.post(`/api/ocs/admin/bank/imports/${good.id}/commit`)).json().data;
  expect((await waitForJob(admin, job.id)).at(-1)!.status).toBe('done');
  expect((await summary(admin)).admin).toMatchObject({ importsRunning: 0, importsFailed: 0 });

  // Adding to the in-memory index throws: the job stops and says so.
  const add = jest.spyOn(ctx.app.ocs.bank.index, 'add').mockImplementation(() => {
    throw new Error('index unavailable');
  });
  try {
    const bad = (await upload(admin, file.replace('导入的题', '导入失败的题'), 'bad.csv')).json().data;
    const badJob = (await admin.post(`/api/ocs/admin/bank/imports/${bad.id}/commit`)).json().data;
    expect((await waitForJob(admin, badJob.id)).at(-1)!.status).toBe('failed');
  } finally {
    add.mockRestore();
  }
  expect((await summary(admin)).admin).toMatchObject({ importsRunning: 0, importsFailed: 1 });

  // The administrator who started each import is told how it ended, by the time the job says so.
  const told = (await admin.get('/api/notifications?kind=ocs.import.finished')).json().data;
  expect(told).toEqual([
    expect.objectContaining({
      title: '题库导入中断：bad.csv',
      body: expect.stringMatching(/^导入在第 1 条附近中断.*；已新增 0 条，更新 0 条$/),
      link: '/OCS/OCSAdmin/bank',
    }),
    expect.objectContaining({
      title: '题库导入完成：good.csv',
      body: '共 1 条：新增 1 条，更新 0 条',
      link: '/OCS/OCSAdmin/bank',
    }),
  ]);
});
