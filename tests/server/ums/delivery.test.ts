import { UMS_MAX_MESSAGE_BYTES } from '../../../src/contract';
import { message, sendUi, startUmsRig, userWithChannel, type UmsRig } from './helpers';

let rig: UmsRig;
beforeAll(async () => {
  rig = await startUmsRig();
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();

test('a markdown message is queued, then delivered signed, with the keyword, and every attempt recorded', async () => {
  const { client, robotToken } = await userWithChannel(
    rig,
    { secret: 'SECabc123', keyword: '门户' },
    { secret: 'SECabc123', keyword: '门户' },
  );
  const id = await sendUi(client, { title: '构建完成', content: '## 主分支\n全部通过' });
  expect((await message(client, id)).status).toBe('queued');
  expect(await run()).toBe(1);
  const m = await message(client, id);
  expect(m.status).toBe('delivered');
  expect(m.attemptLog).toHaveLength(1);
  expect(m.attemptLog[0]).toMatchObject({ outcome: 'delivered', httpStatus: 200, errcode: 0 });
  const got = rig.fake.deliveredTo(robotToken);
  expect(got).toHaveLength(1);
  expect(got[0].body).toMatchObject({ msgtype: 'markdown', markdown: { title: expect.stringContaining('构建完成') } });
  expect(got[0].text).toContain('全部通过');
  expect(got[0].text).toContain('门户');
});

test('text messages carry @mentions', async () => {
  const { client, robotToken } = await userWithChannel(rig);
  await sendUi(client, { type: 'text', content: '值班提醒', atMobiles: ['13800138000'], isAtAll: false });
  await run();
  expect(rig.fake.deliveredTo(robotToken)[0].body).toEqual({
    msgtype: 'text',
    text: { content: '值班提醒' },
    at: { atMobiles: ['13800138000'], isAtAll: false },
  });
});

test('a wrong signing secret fails at once with a clear reason (permanent)', async () => {
  const { client, robotToken } = await userWithChannel(rig, { secret: 'SECright' }, { secret: 'SECwrong' });
  const id = await sendUi(client, { content: 'x' });
  await run();
  const m = await message(client, id);
  expect(m.status).toBe('failed');
  expect(m.attempts).toBe(1);
  expect(m.lastError).toMatch(/加签/);
  expect(m.lastError).toMatch(/310000/);
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(0);
  rig.clock.advance(3 * 3600_000);
  expect(await run()).toBe(0); // never retried
});

test.each([300001, 400102, 430101, 460101])('errcode %i is permanent', async (errcode) => {
  const { client, robotToken } = await userWithChannel(rig);
  rig.fake.script(robotToken, { kind: 'errcode', errcode });
  const id = await sendUi(client, { content: 'x' });
  await run();
  expect((await message(client, id)).status).toBe('failed');
});

test('rate-limit errcodes throttle the robot for 10 minutes; queued messages wait, then go', async () => {
  const { client, robotToken, channelId } = await userWithChannel(rig);
  rig.fake.script(robotToken, { kind: 'errcode', errcode: 660026, errmsg: 'send too fast' });
  const first = await sendUi(client, { content: 'one' });
  await run();
  let m = await message(client, first);
  expect(m.status).toBe('retrying');
  expect(m.attempts).toBe(0); // a throttled attempt does not use up the retry budget
  const channel = (await client.get('/api/ums/channels')).json().data.find((c: { id: number }) => c.id === channelId);
  expect(new Date(channel.throttledUntil).getTime() - rig.clock.t).toBe(10 * 60_000);

  const second = await sendUi(client, { content: 'two' });
  rig.clock.advance(9 * 60_000);
  await run();
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(0);
  expect((await message(client, second)).attemptLog).toHaveLength(0);

  rig.clock.advance(60_001);
  await run();
  expect(rig.fake.deliveredTo(robotToken).map((r) => r.text)).toEqual(expect.arrayContaining(['one', 'two']));
  m = await message(client, first);
  expect(m.status).toBe('delivered');
});

test.each([
  ['errcode -1', { kind: 'errcode', errcode: -1 }],
  ['HTTP 500', { kind: 'http', status: 500 }],
  ['a dropped connection', { kind: 'drop' }],
  ['a stall past the timeout', { kind: 'stall' }],
] as const)('%s is transient: retried with exponential backoff, then delivered', async (_name, behaviour) => {
  const { client, robotToken } = await userWithChannel(rig);
  rig.fake.script(robotToken, behaviour, behaviour);
  const id = await sendUi(client, { content: 'retry me' });
  const t0 = rig.clock.t;
  await run();
  let m = await message(client, id);
  expect(m.status).toBe('retrying');
  const delay1 = new Date(m.nextAttemptAt).getTime() - t0;
  expect(delay1).toBeGreaterThanOrEqual(15_000); // base 30 s with 50-100 % jitter
  expect(delay1).toBeLessThanOrEqual(30_000);

  rig.clock.advance(delay1 - 1);
  expect(await run()).toBe(0); // not yet due
  rig.clock.advance(1);
  await run();
  m = await message(client, id);
  const delay2 = new Date(m.nextAttemptAt).getTime() - rig.clock.t;
  expect(delay2).toBeGreaterThanOrEqual(30_000);
  expect(delay2).toBeLessThanOrEqual(60_000);

  rig.clock.advance(delay2);
  await run();
  m = await message(client, id);
  expect(m.status).toBe('delivered');
  expect(m.attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual(['transient', 'transient', 'delivered']);
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(1);
});

test('after the attempt limit (8 over about an hour) a transient failure becomes failed', async () => {
  const { client, robotToken } = await userWithChannel(rig);
  rig.fake.always(robotToken, { kind: 'http', status: 503 });
  const id = await sendUi(client, { content: 'never' });
  const t0 = rig.clock.t;
  for (let i = 0; i < 8; i++) {
    await run();
    const m = await message(client, id);
    if (m.status === 'failed') break;
    rig.clock.t = new Date(m.nextAttemptAt).getTime();
  }
  const m = await message(client, id);
  expect(m.status).toBe('failed');
  expect(m.attempts).toBe(8);
  expect(m.lastError).toMatch(/重试 8 次后仍失败/);
  const spanMinutes = (rig.clock.t - t0) / 60_000;
  expect(spanMinutes).toBeGreaterThan(30);
  expect(spanMinutes).toBeLessThan(65);
  rig.fake.reset(robotToken);
});

test('at most 20 messages a minute per robot are sent, the rest wait for the window', async () => {
  const { client, robotToken } = await userWithChannel(rig, { perMinute: 20 });
  const ids: number[] = [];
  for (let i = 0; i < 25; i++) ids.push(await sendUi(client, { content: `burst ${i}` }));
  await run();
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(20);
  const statuses = await Promise.all(ids.map(async (id) => (await message(client, id)).status));
  expect(statuses.filter((s) => s === 'retrying')).toHaveLength(5);
  rig.clock.advance(30_000);
  await run();
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(20);
  rig.clock.advance(31_000);
  await run();
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(25); // DingTalk never had to refuse one
});

test('a scheduled message waits for its time; cancel and resend work on the right states', async () => {
  const { client, robotToken } = await userWithChannel(rig);
  const at = new Date(rig.clock.t + 3600_000).toISOString();
  const scheduled = await sendUi(client, { content: 'later', sendAt: at });
  await run();
  expect(rig.fake.deliveredTo(robotToken)).toHaveLength(0);
  const cancelled = await sendUi(client, { content: 'cancel me', sendAt: at });
  expect((await client.post(`/api/ums/messages/${cancelled}/cancel`)).json().data.status).toBe('cancelled');
  expect((await client.post(`/api/ums/messages/${cancelled}/cancel`)).statusCode).toBe(409);
  rig.clock.advance(3600_000);
  await run();
  expect(rig.fake.deliveredTo(robotToken).map((r) => r.text)).toEqual(['later']);
  expect((await message(client, scheduled)).status).toBe('delivered');
  expect((await client.post(`/api/ums/messages/${scheduled}/resend`)).statusCode).toBe(409);

  rig.fake.script(robotToken, { kind: 'errcode', errcode: 400102 });
  const failed = await sendUi(client, { content: 'again' });
  await run();
  expect((await message(client, failed)).status).toBe('failed');
  expect((await client.post(`/api/ums/messages/${failed}/resend`)).json().data.status).toBe('queued');
  await run();
  expect((await message(client, failed)).status).toBe('delivered');
});

describe('bad input is refused at creation and nothing is stored', () => {
  const count = async () =>
    Number(
      (
        await rig.ctx.db
          .selectFrom('ums_messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('size limit: 20,000 UTF-8 bytes pass, one more is refused', async () => {
    const { client } = await userWithChannel(rig);
    expect((await client.post('/api/ums/messages', { content: 'a'.repeat(UMS_MAX_MESSAGE_BYTES) })).statusCode).toBe(
      200,
    );
    const before = await count();
    const res = await client.post('/api/ums/messages', { content: '中'.repeat(6667) }); // 20,001 bytes
    expect(res.statusCode).toBe(400);
    expect(res.json().errorMessage).toMatch(/20000 字节/);
    expect(await count()).toBe(before);
  });

  test.each([
    ['empty content', { content: '' }],
    ['no content', { title: 'x' }],
    ['content of the wrong type', { content: 42 }],
    ['unknown type', { content: 'x', type: 'image' }],
    ['sendAt in the past', { content: 'x', sendAt: '2020-01-01T00:00:00Z' }],
    ['sendAt beyond 30 days', { content: 'x', sendAt: new Date(Date.now() + 31 * 86400_000).toISOString() }],
    ['sendAt garbage', { content: 'x', sendAt: 'tomorrow-ish' }],
    ['channel of someone else', { content: 'x', channel: 999999 }],
    ['bad mobile', { content: 'x', atMobiles: ["1' or 1=1"] }],
  ])('%s', async (_name, body) => {
    const { client } = await userWithChannel(rig);
    const before = await count();
    const res = await client.post('/api/ums/messages', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(await count()).toBe(before);
  });
});
