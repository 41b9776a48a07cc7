/**
 * Forwarding notifications to one of my UMS channels: a kind I forward is queued in the UMS outbox on
 * my chosen channel in the transaction that stores it (rolled back: neither), and the delivery worker
 * sends it like any message; someone else's channel, a missing one or an unconfirmed e-mail address is
 * refused with nothing changed; a kind I turned off is neither stored nor forwarded; news of a failed
 * delivery is never forwarded (it could be about the forwarding channel itself); deleting the channel
 * ends forwarding.
 */
import { notify } from '../../server/modules/notifications/service';
import { loggedInClient, rolledBack } from './helpers';
import { startUmsRig, userWithChannel, type UmsRig } from './ums/helpers';
import type { Client } from './helpers';

let rig: UmsRig;
beforeAll(async () => {
  rig = await startUmsRig();
});
afterAll(async () => {
  await rig.close();
});

const URL = '/api/notifications/preferences';
const put = (client: Client, payload: unknown) =>
  client.request({ method: 'PUT', url: URL, payload: payload as object });
const prefs = async (client: Client) => (await client.get(URL)).json().data;
const outbox = (userId: number) =>
  rig.ctx.db
    .selectFrom('ums_messages')
    .select(['channel_id', 'title', 'content', 'source', 'status'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
const stored = async (userId: number) =>
  (await rig.ctx.db.selectFrom('notifications').select('title').where('user_id', '=', userId).execute()).map(
    (r) => r.title,
  );

test('a forwarded kind is queued on my channel with the notification, and delivered; others are not', async () => {
  const me = await userWithChannel(rig);
  const res = await put(me.client, { forward: { 'user.new-browser': true }, forwardChannelId: me.channelId });
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toMatchObject({ forwardChannelId: me.channelId });
  expect(res.json().data.kinds).toContainEqual({ kind: 'user.new-browser', enabled: true, forward: true });

  await rolledBack(rig.ctx.db, (trx) => notify(trx, me.uid, { kind: 'user.new-browser', title: '回滚了' }));
  expect(await outbox(me.uid)).toEqual([]);
  await notify(rig.ctx.db, me.uid, {
    kind: 'user.new-browser',
    title: '你的账号在新的浏览器上登录',
    body: '登录地址 203.0.113.7',
    link: '/user/security',
  });
  // Not forwarded: a kind I did not choose.
  await notify(rig.ctx.db, me.uid, { kind: 'ocs.balance.low', title: '积分余额不足' });
  expect(await outbox(me.uid)).toEqual([
    {
      channel_id: me.channelId,
      title: '你的账号在新的浏览器上登录',
      content: '登录地址 203.0.113.7\n\n在门户中查看：/user/security\n\n（门户通知：新浏览器登录）',
      source: 'notification',
      status: 'queued',
    },
  ]);
  // The worker's clock is the test's; the message was queued at the database's now(), which it catches up to.
  rig.clock.t = Date.now();
  await rig.ctx.app.umsWorker.runOnce();
  expect(rig.fake.deliveredTo(me.robotToken).map((r) => r.text)).toEqual([
    expect.stringContaining('登录地址 203.0.113.7'),
  ]);
  expect((await outbox(me.uid))[0]!.status).toBe('delivered');
});

test('someone else’s channel, a missing one or an unconfirmed address is refused, and nothing changes', async () => {
  const me = await userWithChannel(rig);
  const other = await userWithChannel(rig);
  await put(me.client, { forward: { 'ocs.balance.low': true }, forwardChannelId: me.channelId });
  const before = await prefs(me.client);
  for (const channel of [other.channelId, 2_000_000_000]) {
    const res = await put(me.client, { forward: { 'user.new-browser': true }, forwardChannelId: channel });
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toEqual({ forwardChannelId: ['渠道不存在'] });
    expect(await prefs(me.client)).toEqual(before);
  }
  // An e-mail address whose owner has not agreed yet.
  const mail = await userWithChannel(rig);
  await rig.ctx.db
    .updateTable('ums_channels')
    .set({ kind: 'email', confirmed_at: null })
    .where('id', '=', mail.channelId)
    .execute();
  const unconfirmed = await put(mail.client, { forwardChannelId: mail.channelId });
  expect(unconfirmed.statusCode).toBe(400);
  expect(unconfirmed.json().data.forwardChannelId[0]).toContain('尚未确认');
  expect((await prefs(mail.client)).forwardChannelId).toBeNull();
  // Bad shapes.
  for (const payload of [
    { forwardChannelId: '1' },
    { forwardChannelId: 0 },
    { forwardChannelId: 2_147_483_648 },
    { forward: { nope: true } },
    { forward: { 'ocs.balance.low': 'yes' } },
  ]) {
    expect((await put(me.client, payload)).statusCode).toBe(400);
  }
  expect(await prefs(me.client)).toEqual(before);
  // null: forward nothing.
  expect((await put(me.client, { forwardChannelId: null })).json().data.forwardChannelId).toBeNull();
  await notify(rig.ctx.db, me.uid, { kind: 'ocs.balance.low', title: '余额' });
  expect(await outbox(me.uid)).toEqual([]);
});

test('a kind I turned off is neither stored nor forwarded', async () => {
  const me = await userWithChannel(rig);
  await put(me.client, {
    enabled: { 'ocs.balance.low': false },
    forward: { 'ocs.balance.low': true },
    forwardChannelId: me.channelId,
  });
  await notify(rig.ctx.db, me.uid, { kind: 'ocs.balance.low', title: '积分余额不足' });
  expect(await stored(me.uid)).toEqual([]);
  expect(await outbox(me.uid)).toEqual([]);
});

test('news of a failed delivery is never forwarded, even to a channel that works', async () => {
  const me = await userWithChannel(rig);
  const refused = await put(me.client, { forward: { 'ums.failed': true }, forwardChannelId: me.channelId });
  expect(refused.statusCode).toBe(400);
  expect(Object.keys(refused.json().data)).toEqual(['forward.ums.failed']);
  expect((await prefs(me.client)).forwardChannelId).toBeNull();
  // Even if the setting were there, the failure of a message sent to the forwarding channel is told only
  // in the portal: no message about it goes to that channel.
  await put(me.client, { forwardChannelId: me.channelId });
  await rig.ctx.db
    .insertInto('notification_preferences')
    .values({ user_id: me.uid, kind: 'ums.failed', forward: true })
    .execute();
  rig.fake.script(me.robotToken, { kind: 'errcode', errcode: 300001 });
  expect((await me.client.post('/api/ums/messages', { title: '坏了', content: 'x' })).statusCode).toBe(200);
  await rig.ctx.app.umsWorker.runOnce();
  expect(await stored(me.uid)).toEqual(['消息「坏了」发送失败']);
  expect((await outbox(me.uid)).map((m) => [m.title, m.source, m.status])).toEqual([['坏了', 'ui', 'failed']]);
});

test('deleting the forwarding channel ends forwarding', async () => {
  const me = await userWithChannel(rig);
  await put(me.client, { forward: { 'user.token-expiring': true }, forwardChannelId: me.channelId });
  const del = await me.client.request({ method: 'DELETE', url: `/api/ums/channels/${me.channelId}` });
  expect(del.statusCode).toBe(200);
  expect((await prefs(me.client)).forwardChannelId).toBeNull();
  await notify(rig.ctx.db, me.uid, { kind: 'user.token-expiring', title: '令牌将过期' });
  expect(await stored(me.uid)).toEqual(['令牌将过期']);
  expect(await outbox(me.uid)).toEqual([]);
});

test('a deleted account forwards nothing more: its settings go with it', async () => {
  const admin = await loggedInClient(rig.ctx, ['admin']);
  const me = await userWithChannel(rig);
  await put(me.client, { forward: { 'user.token-expiring': true }, forwardChannelId: me.channelId });
  const del = await admin.client.request({
    method: 'DELETE',
    url: `/api/user/admin/users/${me.uid}`,
    payload: { confirm: (await me.client.get('/api/user/me')).json().data.username },
  });
  expect(del.statusCode).toBe(200);
  expect(
    await rig.ctx.db.selectFrom('notification_forwarding').select('user_id').where('user_id', '=', me.uid).execute(),
  ).toEqual([]);
  await notify(rig.ctx.db, me.uid, { kind: 'user.token-expiring', title: '已删除的账号' });
  expect(await outbox(me.uid)).toEqual([]);
});
