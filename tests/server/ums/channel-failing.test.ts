/**
 * The administrators' "channel keeps failing" notice: the delivery attempt that makes a channel's run of
 * failures reach UMS_CHANNEL_FAILING_NOTIFY_AT tells each active administrator once (longer runs and
 * other channels' runs add nothing while it is unread); a delivered attempt ends the run, and once read
 * a new run tells again; the channel's owner and plain users hear nothing of it; the notice names the
 * channel and its kind, never its address, token or secret; 0 turns it off.
 */
import type { Client } from '../helpers';
import { loggedInClient } from '../helpers';
import { sendUi, startUmsRig, userWithChannel, type UmsRig } from './helpers';

const MARK = 3;
const SECRET = 'SECwrong0123456789abcdef';
let rig: UmsRig;
let admins: Client[];
let plain: Client;

beforeAll(async () => {
  rig = await startUmsRig({ UMS_CHANNEL_FAILING_NOTIFY_AT: String(MARK) });
  admins = [(await loggedInClient(rig.ctx, ['admin'])).client, (await loggedInClient(rig.ctx, ['admin'])).client];
  plain = (await loggedInClient(rig.ctx)).client;
});
afterAll(async () => {
  await rig.close();
});

type Notice = { id: number; title: string; body: string; link: string | null; readAt: string | null };
const notices = async (client: Client) =>
  (await client.get('/api/notifications?kind=ums.channel.failing')).json().data as Notice[];

/** One message sent and attempted on its own, so the channel's answers come in this order. */
async function attempt(client: Client): Promise<void> {
  await sendUi(client, { content: '值班提醒' });
  expect(await rig.ctx.app.umsWorker.runOnce({ concurrency: 1 })).toBe(1);
}

let broken: Awaited<ReturnType<typeof userWithChannel>>;

test('the failure that reaches the mark tells each administrator once; longer runs add nothing; no secret shown', async () => {
  // The robot wants another signing secret: every attempt fails for good.
  broken = await userWithChannel(rig, { secret: 'SECright' }, { secret: SECRET });
  for (let i = 1; i < MARK; i++) await attempt(broken.client);
  for (const a of admins) expect(await notices(a)).toHaveLength(0);

  await attempt(broken.client);
  for (const a of admins) {
    const told = await notices(a);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ link: '/home', readAt: null });
    expect(told[0]!.title).toMatch(new RegExp(`推送渠道「机器人\\d+」连续 ${MARK} 次发送失败`));
    expect(told[0]!.body).toContain('钉钉机器人');
    expect(told[0]!.body).toContain('加签');
    const text = JSON.stringify(told[0]);
    for (const secret of [broken.robotToken, SECRET, rig.fake.url, 'access_token']) expect(text).not.toContain(secret);
  }
  // The owner hears that their messages failed, not this; a plain user nothing.
  expect(await notices(broken.client)).toHaveLength(0);
  expect(await notices(plain)).toHaveLength(0);

  for (let i = 0; i < 2; i++) await attempt(broken.client);
  for (const a of admins) expect(await notices(a)).toHaveLength(1);
});

test('a delivered attempt ends the run; once read, a new run tells again, unread ones take no second', async () => {
  const first = (await notices(admins[0]!))[0]!;
  expect((await admins[0]!.post('/api/notifications/read', { ids: [first.id] })).statusCode).toBe(200);
  // The broken channel fails on: its run is past the mark, nothing new.
  await attempt(broken.client);
  expect(await notices(admins[0]!)).toHaveLength(1);

  // Another channel: two failures, a delivered message (the run ends), then a new run to the mark.
  const flaky = await userWithChannel(rig);
  const fail = { kind: 'errcode' as const, errcode: 300001 };
  rig.fake.script(flaky.robotToken, fail, fail, { kind: 'ok' }, fail, fail);
  for (let i = 0; i < 2; i++) await attempt(flaky.client);
  await attempt(flaky.client);
  expect(rig.fake.deliveredTo(flaky.robotToken)).toHaveLength(1);
  for (let i = 0; i < 2; i++) await attempt(flaky.client);
  // Two failures since the delivered one (four in all): under the mark.
  expect(await notices(admins[0]!)).toHaveLength(1);
  rig.fake.script(flaky.robotToken, fail);
  await attempt(flaky.client);
  const told = await notices(admins[0]!);
  expect(told).toHaveLength(2);
  expect(told[0]).toMatchObject({ readAt: null });
  expect(told[0]!.body).toContain('access_token 缺失或无效');
  // The other administrator has not read the first: still one.
  expect(await notices(admins[1]!)).toHaveLength(1);
  expect(await notices(plain)).toHaveLength(0);
});

test('a rate-limit answer neither counts nor ends a run; test sends do not count', async () => {
  for (const a of admins) expect((await a.post('/api/notifications/read-all', {})).statusCode).toBe(200);
  const told = async () => (await notices(admins[0]!)).filter((n) => n.readAt === null);

  // Failing test sends, more than the mark: the owner sees each answer, administrators hear nothing.
  const tested = await userWithChannel(rig, { secret: 'SECright' }, { secret: SECRET });
  for (let i = 0; i < MARK + 1; i++) {
    const res = await tested.client.post(`/api/ums/channels/${tested.channelId}/test`, {});
    expect(res.json().data).toMatchObject({ ok: false });
  }
  expect(await told()).toHaveLength(0);

  // Failed, failed, rate-limited (the robot pauses it), then its retry fails: the third failure in a row.
  const paused = await userWithChannel(rig);
  const fail = { kind: 'errcode' as const, errcode: 300001 };
  rig.fake.script(paused.robotToken, fail, fail, { kind: 'errcode', errcode: 130101 });
  for (let i = 0; i < 3; i++) await attempt(paused.client);
  expect(await told()).toHaveLength(0);
  rig.fake.script(paused.robotToken, fail);
  rig.clock.advance(11 * 60_000);
  expect(await rig.ctx.app.umsWorker.runOnce({ concurrency: 1 })).toBe(1);
  const now = await told();
  expect(now).toHaveLength(1);
  expect(now[0]!.title).toContain('连续 3 次');
});

test('UMS_CHANNEL_FAILING_NOTIFY_AT=0 never tells', async () => {
  const off = await startUmsRig({ UMS_CHANNEL_FAILING_NOTIFY_AT: '0' });
  try {
    const admin = (await loggedInClient(off.ctx, ['admin'])).client;
    const ch = await userWithChannel(off, { secret: 'SECright' }, { secret: SECRET });
    for (let i = 0; i < MARK + 2; i++) {
      await sendUi(ch.client, { content: 'x' });
      await off.ctx.app.umsWorker.runOnce({ concurrency: 1 });
    }
    expect((await admin.get('/api/notifications?kind=ums.channel.failing')).json().total).toBe(0);
    expect((await ch.client.get('/api/notifications?kind=ums.failed')).json().total).toBe(1);
  } finally {
    await off.close();
  }
});
