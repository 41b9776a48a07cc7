/**
 * A session cannot flood the outbox: per user, messages a minute (each channel of a fan-out counts)
 * and scheduled messages waiting are limited, whichever way they come (UI, token API, ServerChan), with
 * 429, Retry-After and a Chinese reason; what is refused queues nothing.
 */
import type { LightMyRequestResponse } from 'fastify';
import { loggedInClient, type Client } from '../helpers';
import { addChannel, messageCount, startUmsRig, type UmsRig } from './helpers';

let rig: UmsRig;
beforeAll(async () => {
  // The defaults, but for the scheduled messages a user may keep waiting.
  rig = await startUmsRig({ UMS_USER_MAX_SCHEDULED: '25' });
});
afterAll(async () => {
  await rig.close();
});

let robots = 0;
/** A user with ten channels (the widest fan-out). */
async function userWithTen(): Promise<{ client: Client; uid: number; channels: number[] }> {
  const { client, uid } = await loggedInClient(rig.ctx);
  const channels: number[] = [];
  for (let i = 0; i < 10; i++) {
    const webhook = rig.fake.robot(`flood${process.pid}x${++robots}`);
    channels.push(await addChannel(client, { name: `群${i}`, webhook }));
  }
  return { client, uid, channels };
}

const queued = (uid: number) => messageCount(rig, uid);

/** 300 sends at once, as the audit's flood did. */
const flood = (client: Client, body: Record<string, unknown>) =>
  Promise.all(
    Array.from({ length: 300 }, (_, i) => client.post('/api/ums/messages', { ...body, content: `洪水 ${i}` })),
  );

function expectRefused(res: LightMyRequestResponse, reason: RegExp, maxSeconds: number) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ success: false, errorMessage: expect.stringMatching(reason) });
  const retry = Number(res.headers['retry-after']);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(maxSeconds);
}

test('300 sends at once to ten channels: 12 accepted (120 messages a minute), the rest refused', async () => {
  const { client, uid, channels } = await userWithTen();
  const answers = await flood(client, { channels });
  const accepted = answers.filter((r) => r.statusCode === 200);
  process.stdout.write(`\n[flood] ${accepted.length} of 300 sends accepted, ${await queued(uid)} messages queued\n`);
  expect(accepted).toHaveLength(12);
  expect(await queued(uid)).toBe(120);
  for (const res of answers.filter((r) => r.statusCode !== 200))
    expectRefused(res, /每人每分钟最多发送 120 条消息/, 60);
});

test('300 sends scheduled 29 days ahead to ten channels: 2 accepted, 25 scheduled messages at most', async () => {
  const { client, uid, channels } = await userWithTen();
  const sendAt = new Date(rig.clock.t + 29 * 86_400_000).toISOString();
  const answers = await flood(client, { channels, sendAt });
  expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(2);
  expect(await queued(uid)).toBe(20);
  const refused = answers.filter((r) => r.statusCode !== 200);
  for (const res of refused) expectRefused(res, /定时消息过多：每人最多同时保留 25 条|每人每分钟最多发送/, 29 * 86_400);
  // Refused for the scheduled ones: Retry-After is when the first of them falls due.
  const full = refused.filter((r) => /定时消息过多/.test(r.json().errorMessage));
  expect(full.length).toBeGreaterThan(0);
  for (const res of full) expect(Number(res.headers['retry-after'])).toBeGreaterThan(28 * 86_400);
});

test('scheduled messages waiting: the one past the limit is refused, cancelling one makes room', async () => {
  const { client, uid, channels } = await userWithTen();
  const sendAt = new Date(rig.clock.t + 3_600_000).toISOString();
  const send = (content: string) => client.post('/api/ums/messages', { channels, sendAt, content });
  expect((await send('一')).statusCode).toBe(200);
  expect((await send('二')).statusCode).toBe(200);
  expectRefused(await send('三'), /定时消息过多：每人最多同时保留 25 条待发送的定时消息（现有 20 条）/, 3_600);
  expect(await queued(uid)).toBe(20);
  const ids = (await client.get('/api/ums/messages?pageSize=5')).json().data.map((m: { id: number }) => m.id);
  for (const id of ids) expect((await client.post(`/api/ums/messages/${id}/cancel`)).statusCode).toBe(200);
  expect((await send('取消五条之后')).statusCode).toBe(200);
  // Messages due now are not scheduled ones: they do not count against the 25.
  expect((await client.post('/api/ums/messages', { channels, content: '现在发' })).statusCode).toBe(200);
});

test('the allowance is the user’s: sends through the token API and ServerChan count with the UI’s', async () => {
  const { client, channels } = await userWithTen();
  const token = (await client.post('/api/user/tokens', { name: 't', scopes: ['ums:send'], expiresInDays: null })).json()
    .data.token as string;
  for (let i = 0; i < 11; i++)
    expect((await client.post('/api/ums/messages', { channels, content: `界面 ${i}` })).statusCode).toBe(200);
  const api = await rig.ctx.app.inject({
    method: 'GET',
    url: `/api/ums/send?token=${token}&content=x&channels=${channels.join(',')}`,
  });
  expect(api.statusCode).toBe(200); // 120 now
  expectRefused(
    await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${token}&content=y` }),
    /每人每分钟最多发送/,
    60,
  );
  const sc = await rig.ctx.app.inject({ method: 'GET', url: `/${token}.send?title=z` });
  expect(sc.statusCode).toBe(429);
  expect(sc.json()).toMatchObject({ code: 429, message: expect.stringMatching(/每人每分钟最多发送/) });
});
