/**
 * Delivery callbacks: the final outcome (delivered; failed with the reason; cancelled) is POSTed once to
 * the message's callbackUrl, signed with the sender's callback secret (viewable, rotatable), retried
 * like a message when the receiver fails, and never to an internal address.
 */
import crypto from 'node:crypto';
import { loggedInClient } from '../helpers';
import { addChannel, message, sendUi, startKindsRig, type KindsRig } from './helpers';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig({ UMS_MAX_ATTEMPTS: '3' });
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();

let n = 0;
async function sender() {
  const { client } = await loggedInClient(rig.ctx);
  n += 1;
  const key = `cb${process.pid}-${n}`;
  const channel = await addChannel(client, { kind: 'wecom', name: 'w', webhook: rig.wecom.robot(key) });
  const hook = `callback${process.pid}x${n}`;
  return { client, key, channel, hook, url: rig.hook.endpoint(hook) };
}

const verify = (secret: string, headers: Record<string, unknown>, raw: string) =>
  headers['x-portal-signature'] ===
  `sha256=${crypto.createHmac('sha256', secret).update(`${headers['x-portal-timestamp']}.${raw}`).digest('hex')}`;

test('a delivered message POSTs its outcome once, signed with the owner’s secret', async () => {
  const u = await sender();
  const secret = (await u.client.get('/api/ums/callback-secret')).json().data.secret as string;
  expect(secret).toMatch(/^whsec_/);
  expect((await u.client.get('/api/ums/callback-secret')).json().data.secret).toBe(secret); // stable until rotated
  const id = await sendUi(u.client, { title: '构建', content: 'ok', channel: u.channel, callbackUrl: u.url });
  await run();
  await run();
  const got = rig.hook.deliveredTo(u.hook);
  expect(got).toHaveLength(1);
  expect(verify(secret, got[0].headers, got[0].raw)).toBe(true);
  expect(got[0].json).toMatchObject({
    event: 'ums.message.final',
    messageId: id,
    status: 'delivered',
    reason: null,
    attempts: 1,
    channel: { id: u.channel, kind: 'wecom', name: 'w' },
    title: '构建',
  });
  expect((await message(u.client, id)).callback).toMatchObject({ status: 'sent', attempts: 1, error: null });
  const row = await rig.ctx.db.selectFrom('ums_callback_secrets').selectAll().executeTakeFirstOrThrow();
  expect(JSON.stringify(row)).not.toContain('whsec_');
});

test('a failed message carries its reason; a receiver’s 500 is retried with backoff, then it lands once', async () => {
  const u = await sender();
  rig.wecom.script(u.key, { kind: 'code', code: 93000 });
  rig.hook.script(u.hook, { kind: 'http', status: 500 });
  const id = await sendUi(u.client, { content: 'x', channel: u.channel, callbackUrl: u.url });
  await run();
  let m = await message(u.client, id);
  expect(m.status).toBe('failed');
  expect(m.callback).toMatchObject({ status: 'pending', attempts: 1, error: '回调地址返回 HTTP 500' });
  rig.clock.t = new Date(m.callback.nextAt).getTime();
  await run();
  m = await message(u.client, id);
  expect(m.callback).toMatchObject({ status: 'sent', attempts: 2 });
  // The receiver records what it accepted: the one that landed (the 500 was refused before recording).
  const bodies = rig.hook.deliveredTo(u.hook).map((r) => r.json as { status: string; reason: string });
  expect(bodies).toEqual([expect.objectContaining({ status: 'failed', reason: expect.stringMatching(/93000/) })]);
  rig.clock.advance(3600_000);
  await run();
  expect(rig.hook.deliveredTo(u.hook)).toHaveLength(1);
});

test('a receiver that never answers well gives up after UMS_MAX_ATTEMPTS', async () => {
  const u = await sender();
  rig.hook.always(u.hook, { kind: 'http', status: 503 });
  const id = await sendUi(u.client, { content: 'x', channel: u.channel, callbackUrl: u.url });
  for (let i = 0; i < 4; i++) {
    await run();
    const m = await message(u.client, id);
    if (m.callback?.status !== 'pending') break;
    rig.clock.t = new Date(m.callback.nextAt).getTime();
  }
  const m = await message(u.client, id);
  expect(m.status).toBe('delivered');
  expect(m.callback).toMatchObject({ status: 'failed', attempts: 3 });
  expect(m.callback.error).toMatch(/重试 3 次后仍失败/);
  rig.hook.reset(u.hook);
});

test('a cancelled message calls back too; a rotated secret signs what follows', async () => {
  const u = await sender();
  const old = (await u.client.get('/api/ums/callback-secret')).json().data.secret;
  const rotated = (await u.client.post('/api/ums/callback-secret/rotate')).json().data.secret;
  expect(rotated).not.toBe(old);
  const at = new Date(rig.clock.t + 3600_000).toISOString();
  const id = await sendUi(u.client, { content: 'later', channel: u.channel, sendAt: at, callbackUrl: u.url });
  await u.client.post(`/api/ums/messages/${id}/cancel`);
  await run();
  const got = rig.hook.deliveredTo(u.hook)[0];
  expect(got.json).toMatchObject({ messageId: id, status: 'cancelled' });
  expect(verify(rotated, got.headers, got.raw)).toBe(true);
  expect(verify(old, got.headers, got.raw)).toBe(false);
});

test('the token API takes callbackUrl; an internal or malformed one is refused with nothing stored', async () => {
  const u = await sender();
  const token = (
    await u.client.post('/api/user/tokens', { name: 't', scopes: ['ums:send'], expiresInDays: null })
  ).json().data.token;
  const ok = await rig.ctx.app.inject({
    method: 'POST',
    url: '/api/ums/send',
    payload: { token, content: 'api', callbackUrl: u.url },
  });
  expect((await message(u.client, ok.json().data.id)).callbackUrl).toBe(u.url);
  for (const callbackUrl of ['http://127.0.0.1:9/x', 'http://10.0.0.8/cb', 'ftp://example.com/x', 'not a url']) {
    const res = await u.client.post('/api/ums/messages', { content: 'x', channel: u.channel, callbackUrl });
    expect({ callbackUrl, status: res.statusCode }).toEqual({ callbackUrl, status: 400 });
    expect(res.json().data).toHaveProperty('callbackUrl');
  }
  const list = (await u.client.get('/api/ums/messages')).json();
  expect(list.total).toBe(1);
  expect((await rig.ctx.app.inject({ method: 'GET', url: '/api/ums/callback-secret' })).statusCode).toBe(401);
});
