/**
 * The inbox: every message, delivered or not, is readable in 消息查询 with read/unread state — so with
 * every channel down nothing is lost — and only its owner can mark it read.
 */
import { loggedInClient } from '../helpers';
import { addChannel, addConfirmedEmail, startKindsRig, type KindsRig } from './helpers';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig();
});
afterAll(async () => {
  await rig.close();
});

test('messages arrive unread; opening one reads it; read-all reads the rest; others cannot', async () => {
  const { client } = await loggedInClient(rig.ctx);
  const key = `inbox${process.pid}`;
  const channel = await addChannel(client, { kind: 'wecom', name: 'w', webhook: rig.wecom.robot(key) });
  // Every channel down: the messages fail, but their content stays readable here.
  rig.wecom.always(key, { kind: 'code', code: 93000 });
  const ids: number[] = [];
  for (const content of ['第一条', '第二条', '第三条']) {
    ids.push((await client.post('/api/ums/messages', { content, channel })).json().data.id);
  }
  await rig.ctx.app.umsWorker.runOnce();
  let stats = (await client.get('/api/ums/stats')).json().data;
  expect(stats.unread).toBe(3);
  const unread = (await client.get('/api/ums/messages?read=unread')).json();
  expect(unread.total).toBe(3);
  expect(
    unread.data.map((m: { content: string; status: string; readAt: null }) => [m.content, m.status, m.readAt]),
  ).toEqual([
    ['第三条', 'failed', null],
    ['第二条', 'failed', null],
    ['第一条', 'failed', null],
  ]);

  const read = await client.post(`/api/ums/messages/${ids[0]}/read`);
  expect(read.json().data).toEqual({ updated: 1, unread: 2 });
  expect((await client.post(`/api/ums/messages/${ids[0]}/read`)).json().data).toEqual({ updated: 0, unread: 2 });
  const detail = (await client.get(`/api/ums/messages/${ids[0]}`)).json().data;
  expect(detail.readAt).not.toBeNull();
  expect((await client.get('/api/ums/messages?read=read')).json().total).toBe(1);

  const other = (await loggedInClient(rig.ctx)).client;
  expect((await other.post(`/api/ums/messages/${ids[1]}/read`)).statusCode).toBe(404);
  expect((await other.post('/api/ums/messages/read-all')).json().data).toEqual({ updated: 0, unread: 0 });

  expect((await client.post('/api/ums/messages/read-all')).json().data).toEqual({ updated: 2, unread: 0 });
  stats = (await client.get('/api/ums/stats')).json().data;
  expect(stats.unread).toBe(0);
  rig.wecom.reset(key);
});

test('reading through a token does not mark a message read', async () => {
  const { client } = await loggedInClient(rig.ctx);
  await addConfirmedEmail(rig, client, { name: 'e', email: `inbox${process.pid}@example.edu` });
  const token = (await client.post('/api/user/tokens', { name: 't', scopes: ['ums:send'], expiresInDays: null })).json()
    .data.token;
  const id = (await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${token}&content=x` })).json().data
    .id;
  await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/messages/${id}?token=${token}` });
  expect((await client.get('/api/ums/stats')).json().data.unread).toBe(1);
});
