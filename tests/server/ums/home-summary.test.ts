/**
 * The home page's UMS card (GET /api/ums/home-summary): a user's own unread and failed messages and the
 * newest few, never another's; administrators also see the shared outbox (waiting, retrying, failed in
 * the last day), each figure right after the change that makes it.
 */
import { sql } from 'kysely';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const summary = async (client: Client) => {
  const res = await client.get('/api/ums/home-summary');
  expect(res.statusCode).toBe(200);
  return res.json().data;
};

/** A message row as the outbox keeps it (the delivery worker's states are set directly). */
async function message(
  userId: number,
  title: string,
  status: string,
  extra: { read?: boolean; ageHours?: number } = {},
) {
  const row = await ctx.db
    .insertInto('ums_messages')
    .values({
      user_id: userId,
      type: 'text',
      title,
      content: '内容',
      status,
      source: 'ui',
      read_at: extra.read ? new Date() : null,
      updated_at: sql<Date>`now() - make_interval(hours => ${extra.ageHours ?? 0})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

test('a visitor is refused', async () => {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/ums/home-summary' });
  expect(res.statusCode).toBe(401);
});

test('a user sees their own unread and failed messages, the newest first, and no outbox', async () => {
  const me = await loggedInClient(ctx);
  const other = await loggedInClient(ctx);
  expect(await summary(me.client)).toEqual({ unread: 0, failed: 0, latest: [], admin: null });

  const first = await message(me.uid, '第一条', 'delivered');
  const failed = await message(me.uid, '发送失败的', 'failed');
  await message(me.uid, '已读的', 'delivered', { read: true });
  await message(other.uid, '别人的', 'failed');
  const s = await summary(me.client);
  expect(s).toMatchObject({ unread: 2, failed: 1, admin: null });
  expect(s.latest.map((m: { title: string }) => m.title)).toEqual(['已读的', '发送失败的', '第一条']);
  expect(s.latest[1]).toMatchObject({ id: failed, status: 'failed', read: false });
  expect(new Date(s.latest[0].createdAt).toISOString()).toBe(s.latest[0].createdAt);

  // Reading one in 消息查询 lowers the count at once.
  expect((await me.client.post(`/api/ums/messages/${first}/read`)).statusCode).toBe(200);
  expect(await summary(me.client)).toMatchObject({ unread: 1, failed: 1 });
  // Only five are listed.
  for (let i = 0; i < 6; i++) await message(me.uid, `批量 ${i}`, 'delivered', { read: true });
  expect((await summary(me.client)).latest).toHaveLength(5);
  expect(await summary(other.client)).toMatchObject({ unread: 1, failed: 1, latest: [{ title: '别人的' }] });
});

test('an administrator sees the whole outbox: waiting, retrying, failed in the last day', async () => {
  const admin = await loggedInClient(ctx, ['admin']);
  const u = await loggedInClient(ctx);
  const before = (await summary(admin.client)).admin;
  expect(before).toEqual({
    waiting: expect.any(Number),
    retrying: expect.any(Number),
    failedLastDay: expect.any(Number),
  });

  await message(u.uid, '排队', 'queued');
  await message(u.uid, '发送中', 'sending');
  await message(u.uid, '并入摘要', 'merged');
  await message(u.uid, '重试', 'retrying');
  await message(u.uid, '刚失败', 'failed');
  await message(u.uid, '昨天以前失败', 'failed', { ageHours: 25 });
  await message(u.uid, '已送达', 'delivered');
  await message(u.uid, '已取消', 'cancelled');
  expect((await summary(admin.client)).admin).toEqual({
    waiting: before.waiting + 3,
    retrying: before.retrying + 1,
    failedLastDay: before.failedLastDay + 1,
  });
  // The administrator's own inbox is still only theirs.
  expect(await summary(admin.client)).toMatchObject({ unread: 0, failed: 0, latest: [] });
  expect((await summary(u.client)).admin).toBeNull();
});
