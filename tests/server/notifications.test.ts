/**
 * The notification centre: a user's own notifications listed newest first, filtered by kind and by
 * read or unread, counted, marked read one by one or all at once (someone else's ids change nothing),
 * bad input refused without a change; and what feeds it: a sign-in from a new browser, a message
 * that failed for good (once until read), a report accepted with its refund or rejected with the
 * reason, and for administrators one "new reports waiting" until they read it.
 */
import { prepareQuestion } from '../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../server/modules/ocs/bank/store';
import { notify, tellExpiringTokens } from '../../server/modules/notifications/service';
import { sql } from 'kysely';
import { writeSettings } from '../../server/modules/ocs/admin/settings';
import { Client, loggedInClient, startTestApp, type TestContext } from './helpers';
import { userWithToken } from './ocs/admin-fixtures';
import { sendUi, startUmsRig, userWithChannel, type UmsRig } from './ums/helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const list = async (client: Client, query = '') => {
  const res = await client.get(`/api/notifications${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    data: Array<{ id: number; kind: string; title: string; body: string; link: string | null; readAt: string | null }>;
    total: number;
  };
};
const unread = async (client: Client) => (await client.get('/api/notifications/unread-count')).json().data.unread;

test('listed newest first, filtered, counted and marked read; others’ ids and bad input change nothing', async () => {
  const me = await loggedInClient(ctx);
  const other = await loggedInClient(ctx);
  for (let i = 1; i <= 3; i++) {
    await notify(ctx.db, me.uid, { kind: 'ums.failed', title: `失败 ${i}`, body: '原因', link: '/UMS/queryMessage' });
  }
  await notify(ctx.db, me.uid, { kind: 'user.new-browser', title: '新浏览器', link: 'https://evil.example/' });
  await notify(ctx.db, other.uid, { kind: 'ums.failed', title: '别人的' });

  const all = await list(me.client);
  expect(all.total).toBe(4);
  expect(all.data.map((n) => n.title)).toEqual(['新浏览器', '失败 3', '失败 2', '失败 1']);
  // A link is a path of the portal or nothing.
  expect(all.data[0]).toMatchObject({ kind: 'user.new-browser', link: null, readAt: null });
  expect(all.data[1]).toMatchObject({ link: '/UMS/queryMessage', body: '原因' });
  expect((await list(me.client, '?kind=ums.failed&pageSize=2')).data.map((n) => n.title)).toEqual(['失败 3', '失败 2']);
  expect(await unread(me.client)).toBe(4);

  // Someone else's id: nothing changes, for either of us.
  const theirs = (await list(other.client)).data[0]!.id;
  const res = await me.client.post('/api/notifications/read', { ids: [theirs, all.data[1]!.id] });
  expect(res.json().data).toEqual({ updated: 1, unread: 3 });
  expect(await unread(other.client)).toBe(1);
  expect((await list(me.client, '?read=read')).data.map((n) => n.title)).toEqual(['失败 3']);
  expect((await list(me.client, '?read=unread')).total).toBe(3);

  for (const body of [
    {},
    { ids: [] },
    { ids: ['1'] },
    { ids: [0] },
    { ids: [2147483648] },
    { ids: Array.from({ length: 201 }, (_, i) => i + 1) },
    { ids: '[1]' },
  ]) {
    const bad = await me.client.post('/api/notifications/read', body);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
    expect(Object.keys(bad.json().data ?? {}).some((k) => k.startsWith('ids'))).toBe(true);
  }
  for (const q of ['?kind=nope', '?read=yes', '?pageSize=1000', '?current=0']) {
    expect((await me.client.get(`/api/notifications${q}`)).statusCode).toBe(400);
  }
  expect(await unread(me.client)).toBe(3);

  expect((await me.client.post('/api/notifications/read-all', {})).json().data).toEqual({ updated: 3, unread: 0 });
  expect((await me.client.post('/api/notifications/read-all', {})).json().data).toEqual({ updated: 0, unread: 0 });
  expect(await unread(other.client)).toBe(1);

  // Nobody else's: a visitor is refused.
  expect((await new Client(ctx.app).get('/api/notifications')).statusCode).toBe(401);
});

test('a deleted user’s notifications go with the account', async () => {
  const admin = await loggedInClient(ctx, ['admin']);
  const gone = await loggedInClient(ctx);
  await notify(ctx.db, gone.uid, { kind: 'ums.failed', title: '将被删除' });
  const del = await admin.client.request({
    method: 'DELETE',
    url: `/api/user/admin/users/${gone.uid}`,
    payload: { confirm: gone.username },
  });
  expect(del.statusCode).toBe(200);
  expect(await ctx.db.selectFrom('notifications').select('id').where('user_id', '=', gone.uid).execute()).toEqual([]);
});

test('a sign-in from a browser the account does not know is told; the same browser again is not', async () => {
  const me = await loggedInClient(ctx, [], 'correct-horse-battery');
  expect(await unread(me.client)).toBe(0); // the first browser of the account
  const second = new Client(ctx.app);
  expect(
    (await second.post('/api/user/login', { username: me.username, password: 'correct-horse-battery' })).statusCode,
  ).toBe(200);
  const told = (await list(me.client)).data;
  expect(told).toEqual([expect.objectContaining({ kind: 'user.new-browser', link: '/user/security' })]);
  expect(told[0]!.body).toContain('登录地址');
  // The same browser, and the first one, again: nothing new.
  await second.post('/api/user/logout', {});
  expect(
    (await second.post('/api/user/login', { username: me.username, password: 'correct-horse-battery' })).statusCode,
  ).toBe(200);
  expect((await list(me.client)).total).toBe(1);
});

test('reports: administrators hear of new ones once until read; the reporter hears the decision', async () => {
  const admin = await loggedInClient(ctx, ['admin']);
  await writeSettings(ctx.db, { ratePerSecond: 1000, rateBurst: 1000 });
  ctx.app.ocs.settings.invalidate();
  const titles = ['通知：会被采纳的题', '通知：会被驳回的题'];
  const rows = (
    await upsertQuestions(
      ctx.db,
      titles.map(
        (title) =>
          prepareQuestion({ title, type: 'single', options: ['甲', '乙', '丙'], answer: ['A'] }) as Exclude<
            ReturnType<typeof prepareQuestion>,
            { error: string }
          >,
      ),
      'import',
    )
  ).rows;
  rows.forEach((r) => ctx.app.ocs.bank.index.add(r.id, r.norm_title));
  await ctx.app.ocs.bank.settled();
  const reporters = [];
  for (const title of titles) {
    // Points enough that the answer leaves them well off: only the report's news is theirs to hear.
    const u = await userWithToken(ctx, 100);
    const res = await ctx.app
      .inject({
        method: 'GET',
        url: '/api/ocs/query',
        query: { token: u.token, title, type: 'single', options: 'A. 甲\nB. 乙\nC. 丙' },
      })
      .then((r) => r.json());
    expect(res).toMatchObject({ code: 1, cost: 1 });
    expect((await u.client.post('/api/ocs/reports', { queryId: res.queryId, proposed: 'B' })).statusCode).toBe(200);
    reporters.push(u);
  }
  // Two reports, one notification for the administrator.
  const waiting = (await list(admin.client, '?kind=ocs.report.new')).data;
  expect(waiting).toEqual([expect.objectContaining({ link: '/OCS/OCSAdmin/reviews', readAt: null })]);

  const accepted = await admin.client.post('/api/ocs/admin/reviews/accept', {
    items: [{ questionId: rows[0]!.id, answer: ['B'] }],
    reason: '教材原文',
  });
  expect(accepted.statusCode).toBe(200);
  expect((await list(reporters[0]!.client)).data).toEqual([
    expect.objectContaining({ kind: 'ocs.report.accepted', body: expect.stringContaining('已退还 1 积分') }),
  ]);
  const rejected = await admin.client.post('/api/ocs/admin/reviews/reject', {
    questionIds: [rows[1]!.id],
    reason: '原答案正确',
  });
  expect(rejected.statusCode).toBe(200);
  expect((await list(reporters[1]!.client)).data).toEqual([
    expect.objectContaining({ kind: 'ocs.report.rejected', body: expect.stringContaining('原答案正确') }),
  ]);
});

test('a personal token that expires within a week is told once; a short-lived or revoked one is not', async () => {
  const me = await loggedInClient(ctx);
  const make = async (name: string, expiresInDays: number) =>
    (await me.client.post('/api/user/tokens', { name, scopes: ['ocs:query'], expiresInDays })).json().data.id as number;
  const soon = await make('即将过期', 30);
  const short = await make('短期', 7);
  const revoked = await make('已撤销', 30);
  await make('还早', 30);
  await ctx.db
    .updateTable('api_tokens')
    .set({ expires_at: sql<Date>`now() + interval '3 days'`, created_at: sql<Date>`now() - interval '27 days'` })
    .where('id', 'in', [soon, revoked])
    .execute();
  // The seven-day token, two days before its end.
  await ctx.db
    .updateTable('api_tokens')
    .set({ expires_at: sql<Date>`now() + interval '2 days'`, created_at: sql<Date>`now() - interval '5 days'` })
    .where('id', '=', short)
    .execute();
  await me.client.post(`/api/user/tokens/${revoked}/revoke`, {});
  expect(short).toBeGreaterThan(0);
  await tellExpiringTokens(ctx.db);
  await tellExpiringTokens(ctx.db);
  expect((await list(me.client, '?kind=user.token-expiring')).data).toEqual([
    expect.objectContaining({ title: '令牌「即将过期」将在 3 天内过期', link: '/user/tokenManage' }),
  ]);
});

describe('UMS', () => {
  let rig: UmsRig;
  beforeAll(async () => {
    rig = await startUmsRig();
  });
  afterAll(async () => {
    await rig.close();
  });

  test('a message that failed for good is told once until read, then again', async () => {
    const { client, robotToken } = await userWithChannel(rig);
    rig.fake.script(robotToken, { kind: 'errcode', errcode: 300001 });
    await sendUi(client, { title: '构建失败', content: 'x' });
    await sendUi(client, { title: '第二条', content: 'y' });
    await rig.ctx.app.umsWorker.runOnce();
    const told = (await list(client)).data;
    expect(told).toEqual([
      expect.objectContaining({
        kind: 'ums.failed',
        link: '/UMS/queryMessage',
        title: expect.stringMatching(/^消息「(构建失败|第二条)」发送失败$/),
      }),
    ]);
    await client.post('/api/notifications/read-all', {});
    rig.fake.script(robotToken, { kind: 'errcode', errcode: 300001 });
    await sendUi(client, { title: '第三条', content: 'z' });
    await rig.ctx.app.umsWorker.runOnce();
    expect((await list(client, '?read=unread')).data).toEqual([
      expect.objectContaining({ title: '消息「第三条」发送失败' }),
    ]);
  });
});
