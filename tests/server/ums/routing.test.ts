/**
 * Sending beyond one channel: duplicate protection (an idempotency key, the Idempotency-Key header,
 * ServerChan/PushPlus `timestamp`), priority (urgent first in the claim order), fan-out (one message
 * and one timeline per channel), a fallback chain (the next channel when one fails for good), and
 * quiet hours per channel (deferred, not dropped; urgent goes through).
 */
import type { InjectOptions } from 'fastify';
import { loggedInClient, type Client } from '../helpers';
import { addChannel, addConfirmedEmail, message, messageCount, sendUi, startKindsRig, type KindsRig } from './helpers';
import { pushedTo } from '../../fixtures/ums-client';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig({ UMS_MAX_ATTEMPTS: '2' });
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();
const inject = (opts: InjectOptions) => rig.ctx.app.inject(opts);
const countOf = (userId: number) => messageCount(rig, userId);

let n = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++n}`;

/** A user with a WeCom, a Feishu and an e-mail channel (the WeCom one the default). */
async function userWithThree() {
  const { client, uid } = await loggedInClient(rig.ctx);
  const key = unique('key-');
  const token = unique('tok-');
  const address = `${unique('m')}@example.edu`;
  const wecom = await addChannel(client, { kind: 'wecom', name: '企业微信', webhook: rig.wecom.robot(key) });
  const feishu = await addChannel(client, { kind: 'feishu', name: '飞书', webhook: rig.feishu.bot(token) });
  const email = await addConfirmedEmail(rig, client, { name: '邮件', email: address });
  const apiToken = (
    await client.post('/api/user/tokens', { name: 't', scopes: ['ums:send'], expiresInDays: null })
  ).json().data.token as string;
  return { client, uid, key, token, address, wecom, feishu, email, apiToken };
}

describe('duplicate protection', () => {
  test('the same idempotency key returns the first message; another user’s key is theirs', async () => {
    const u = await userWithThree();
    const first = (await u.client.post('/api/ums/messages', { content: '一次', idempotencyKey: 'job-42' })).json().data;
    const again = (await u.client.post('/api/ums/messages', { content: '一次', idempotencyKey: 'job-42' })).json().data;
    expect(first).toEqual({ id: expect.any(Number), status: 'queued' });
    expect(again).toEqual({ id: first.id, status: 'queued', duplicate: true });
    expect(await countOf(u.uid)).toBe(1);
    await run();
    expect(rig.wecom.deliveredTo(u.key)).toHaveLength(1);
    expect((await u.client.post('/api/ums/messages', { content: 'x', idempotencyKey: 'job-42' })).json().data).toEqual({
      id: first.id,
      status: 'delivered',
      duplicate: true,
    });
    const other = await userWithThree();
    const theirs = (await other.client.post('/api/ums/messages', { content: 'y', idempotencyKey: 'job-42' })).json()
      .data;
    expect(theirs.id).not.toBe(first.id);
    expect(theirs.duplicate).toBeUndefined();
  });

  test('retried at the same moment, a key still queues once', async () => {
    const u = await userWithThree();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        inject({
          method: 'POST',
          url: '/api/ums/send',
          headers: { authorization: `Bearer ${u.apiToken}`, 'idempotency-key': 'nightly-build-7' },
          payload: { content: '并发重试' },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().data.id)).size).toBe(1);
    expect(answers.filter((a) => a.json().data.duplicate)).toHaveLength(5);
    expect(await countOf(u.uid)).toBe(1);
  });

  test('ServerChan’s and PushPlus’s timestamp protect the same way', async () => {
    const u = await userWithThree();
    const sc = () => inject({ method: 'GET', url: `/${u.apiToken}.send?title=t&desp=d&timestamp=1732000000000` });
    const [a, b] = [await sc(), await sc()];
    expect(b.json().data.pushid).toBe(a.json().data.pushid);
    const pp = () =>
      inject({ method: 'POST', url: '/send', payload: { token: u.apiToken, content: 'c', timestamp: 1732000000001 } });
    const [c, d] = [await pp(), await pp()];
    expect(d.json()).toEqual(c.json());
    expect(await countOf(u.uid)).toBe(2);
  });
});

test('urgent messages are claimed first, then high, normal, low; each in the order they came', async () => {
  const u = await userWithThree();
  const send = (content: string, priority: string) => sendUi(u.client, { content, priority, channel: u.wecom });
  await send('普通1', 'normal');
  await send('低', 'low');
  await send('普通2', 'normal');
  await send('紧急', 'urgent');
  await send('高', 'high');
  await rig.ctx.app.umsWorker.runOnce({ concurrency: 1 });
  expect(rig.wecom.deliveredTo(u.key).map((r) => r.text)).toEqual(['紧急', '高', '普通1', '普通2', '低']);
  const list = (await u.client.get('/api/ums/messages')).json().data;
  expect(list.find((m: { content: string }) => m.content === '紧急').priority).toBe('urgent');
});

describe('fan-out', () => {
  test('one send to three channels: three messages, each delivered at its own fake with its own timeline', async () => {
    const u = await userWithThree();
    const res = await u.client.post('/api/ums/messages', {
      title: '全员',
      content: '**停电通知**',
      channels: [u.wecom, u.feishu, u.email],
    });
    const created = res.json().data;
    expect(created.deliveries.map((d: { channelId: number }) => d.channelId)).toEqual([u.wecom, u.feishu, u.email]);
    expect(created.id).toBe(created.deliveries[0].id);
    rig.feishu.script(u.token, { kind: 'code', code: 9499 });
    await run();
    const [w, f, e] = await Promise.all(created.deliveries.map((d: { id: number }) => message(u.client, d.id)));
    expect(w).toMatchObject({ status: 'delivered', groupId: created.id, channelId: u.wecom });
    expect(f).toMatchObject({ status: 'failed', groupId: created.id, channelId: u.feishu });
    expect(e).toMatchObject({ status: 'delivered', groupId: created.id, channelId: u.email });
    expect(w.attemptLog.map((a: { channelKind: string }) => a.channelKind)).toEqual(['wecom']);
    expect(f.attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual(['permanent']);
    expect(e.attemptLog.map((a: { channelKind: string }) => a.channelKind)).toEqual(['email']);
    expect(rig.wecom.deliveredTo(u.key)[0].text).toContain('停电通知');
    expect(pushedTo(rig.smtp, u.address)[0].subject).toBe('全员');
  });

  test('through the token API as a comma list', async () => {
    const u = await userWithThree();
    const res = await inject({
      method: 'GET',
      url: `/api/ums/send?token=${u.apiToken}&content=x&channels=${u.wecom},${u.email}`,
    });
    expect(res.json().data.deliveries).toHaveLength(2);
  });
});

describe('fallback chain', () => {
  test('a permanent failure moves the message to the next channel; the timeline spans both', async () => {
    const u = await userWithThree();
    rig.wecom.script(u.key, { kind: 'code', code: 93000 });
    const id = await sendUi(u.client, { content: '备用', fallback: [u.wecom, u.feishu, u.email] });
    expect((await message(u.client, id)).fallbackChannelIds).toEqual([u.feishu, u.email]);
    rig.feishu.script(u.token, { kind: 'stall' });
    await run();
    // Moved on at once, in the same round: the next channel's first attempt timed out.
    let m = await message(u.client, id);
    expect(m).toMatchObject({ status: 'retrying', channelId: u.feishu, fallbackChannelIds: [u.email], attempts: 1 });
    rig.clock.t = new Date(m.nextAttemptAt).getTime();
    await run();
    m = await message(u.client, id);
    expect(m).toMatchObject({ status: 'delivered', channelId: u.feishu, fallbackChannelIds: [u.email] });
    expect(m.attemptLog.map((a: { channelKind: string; outcome: string }) => `${a.channelKind}:${a.outcome}`)).toEqual([
      'wecom:permanent',
      'feishu:transient',
      'feishu:delivered',
    ]);
    expect(rig.feishu.deliveredTo(u.token)).toHaveLength(1);
    expect(pushedTo(rig.smtp, u.address)).toHaveLength(0);
  });

  test('a channel that keeps failing transiently falls back after its retries; the end of the chain fails', async () => {
    const u = await userWithThree();
    rig.wecom.always(u.key, { kind: 'http', status: 503 });
    rig.feishu.always(u.token, { kind: 'http', status: 503 });
    const id = await sendUi(u.client, { content: '都坏了', fallback: [u.wecom, u.feishu] });
    for (let i = 0; i < 6; i++) {
      await run();
      const m = await message(u.client, id);
      if (m.status === 'failed') break;
      rig.clock.t = Math.max(rig.clock.t, new Date(m.nextAttemptAt).getTime());
    }
    const m = await message(u.client, id);
    expect(m.status).toBe('failed');
    expect(m.lastError).toMatch(/重试 2 次后仍失败/);
    expect(m.attemptLog.map((a: { channelKind: string }) => a.channelKind)).toEqual([
      'wecom',
      'wecom',
      'feishu',
      'feishu',
    ]);
    rig.wecom.reset(u.key);
    rig.feishu.reset(u.token);
  });

  test('a deleted channel in the chain is skipped', async () => {
    const u = await userWithThree();
    rig.wecom.script(u.key, { kind: 'code', code: 93000 });
    const id = await sendUi(u.client, { content: '跳过', fallback: [u.wecom, u.feishu, u.email] });
    expect((await u.client.request({ method: 'DELETE', url: `/api/ums/channels/${u.feishu}` })).statusCode).toBe(200);
    await run();
    const m = await message(u.client, id);
    expect(m).toMatchObject({ status: 'delivered', channelId: u.email, fallbackChannelIds: [] });
    expect(pushedTo(rig.smtp, u.address)).toHaveLength(1);
  });
});

describe('quiet hours', () => {
  test('a message waits out 22:00–07:00 (Asia/Shanghai); an urgent one goes at once', async () => {
    const u = await userWithThree();
    const patch = await u.client.request({
      method: 'PATCH',
      url: `/api/ums/channels/${u.wecom}`,
      payload: { quietStart: '22:00', quietEnd: '07:00' },
    });
    expect(patch.json().data.quietHours).toEqual({ start: '22:00', end: '07:00' });
    rig.clock.t = Date.UTC(2026, 0, 10, 15, 30); // 23:30 in Shanghai
    const normal = await sendUi(u.client, { content: '夜里的普通消息', channel: u.wecom });
    const urgent = await sendUi(u.client, { content: '夜里的紧急消息', channel: u.wecom, priority: 'urgent' });
    await run();
    const waiting = await message(u.client, normal);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0, attemptLog: [] });
    expect(waiting.lastError).toBe('免打扰时段，推迟到 07:00 发送');
    expect(waiting.nextAttemptAt).toBe(new Date(Date.UTC(2026, 0, 10, 23, 0)).toISOString());
    expect((await message(u.client, urgent)).status).toBe('delivered');
    rig.clock.t = Date.UTC(2026, 0, 10, 23, 0); // 07:00
    await run();
    expect((await message(u.client, normal)).status).toBe('delivered');
    expect(rig.wecom.deliveredTo(u.key).map((r) => r.text)).toEqual(['夜里的紧急消息', '夜里的普通消息']);
    const cleared = await u.client.request({
      method: 'PATCH',
      url: `/api/ums/channels/${u.wecom}`,
      payload: { quietStart: '', quietEnd: '' },
    });
    expect(cleared.json().data.quietHours).toBeNull();
  });
});

describe('bad routing is refused, nothing stored', () => {
  let u: Awaited<ReturnType<typeof userWithThree>>;
  let stranger: number;
  beforeAll(async () => {
    u = await userWithThree();
    const other: Client = (await loggedInClient(rig.ctx)).client;
    stranger = await addChannel(other, { kind: 'email', name: 'x', email: 'x@example.edu' });
  });
  test.each([
    ['channel and channels together', () => ({ channel: u.wecom, channels: [u.feishu] }), 'channels'],
    ['someone else’s channel in a fan-out', () => ({ channels: [u.wecom, stranger] }), 'channels'],
    ['a channel twice in a chain', () => ({ fallback: [u.wecom, u.wecom] }), 'fallback'],
    ['more than 10 channels', () => ({ channels: Array.from({ length: 11 }, (_, i) => i + 1) }), 'channels'],
    ['an unknown priority', () => ({ priority: 'asap' }), 'priority'],
    ['a key with spaces', () => ({ idempotencyKey: 'two words' }), 'idempotencyKey'],
  ])('%s', async (_name, extra, field) => {
    const before = await countOf(u.uid);
    const res = await u.client.post('/api/ums/messages', { content: 'x', ...extra() });
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toHaveProperty([field]);
    expect(await countOf(u.uid)).toBe(before);
  });

  test.each([
    ['only a start', { quietStart: '22:00' }, 'quietEnd'],
    ['the same start and end', { quietStart: '22:00', quietEnd: '22:00' }, 'quietEnd'],
    ['not a time', { quietStart: '25:00', quietEnd: '07:00' }, 'quietStart'],
  ])('quiet hours: %s', async (_name, payload, field) => {
    const res = await u.client.request({ method: 'PATCH', url: `/api/ums/channels/${u.feishu}`, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toHaveProperty([field]);
  });
});
