/**
 * Pacing under contention: the most urgent message takes a paced channel's next slot, whichever
 * worker reaches the slot first.
 */
import { syncPaceKeys } from '../../../server/modules/ums/channels';
import { loggedInClient } from '../helpers';
import { addChannel, message, sendUi, startKindsRig, until, type KindsRig } from './helpers';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig();
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();

let n = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++n}`;

/** A user with a webhook channel paced at one message a minute; the texts its receiver got. */
async function hookAtOnePerMinute() {
  const { client, uid } = await loggedInClient(rig.ctx);
  const name = unique('h');
  const channel = await addChannel(client, {
    kind: 'webhook',
    name: 'hook',
    webhook: rig.hook.endpoint(name),
    perMinute: 1,
  });
  const texts = () => rig.hook.deliveredTo(name).map((r) => (r.json as { content: string }).content);
  return { client, uid, name, channel, texts };
}

describe('priority on a paced channel', () => {
  test.each([1, 2, 3])('run %i: low queued before high, both due at the same instant: high goes first', async () => {
    const { client, channel, texts } = await hookAtOnePerMinute();
    await sendUi(client, { content: '第一条', channel });
    await run();
    const low = await sendUi(client, { content: '低', channel, priority: 'low' });
    await run();
    const high = await sendUi(client, { content: '高', channel, priority: 'high' });
    await run();
    // Both wait for the same slot.
    const [l, h] = [await message(client, low), await message(client, high)];
    expect(l.nextAttemptAt).toBe(h.nextAttemptAt);
    rig.clock.t = new Date(h.nextAttemptAt).getTime();
    await run();
    expect(texts()).toEqual(['第一条', '高']);
    expect((await message(client, low)).status).toBe('retrying');
    rig.clock.t = new Date((await message(client, low)).nextAttemptAt).getTime();
    await run();
    expect(texts()).toEqual(['第一条', '高', '低']);
  });

  test('another instance has claimed the high one and not yet taken the slot: the low one leaves it free', async () => {
    const { client, uid, channel, texts } = await hookAtOnePerMinute();
    const low = await sendUi(client, { content: '低', channel, priority: 'low' });
    const high = await sendUi(client, { content: '高', channel, priority: 'high' });
    // What the other instance's claim does to the row; its worker has yet to reach the slot.
    const claimed = () =>
      rig.ctx.db
        .updateTable('ums_messages')
        .set((eb) => ({
          status: 'sending',
          locked_until: new Date(rig.clock.t + 15_000),
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', high)
        .execute();
    await claimed();
    await run();
    expect(texts()).toEqual([]);
    expect((await message(client, low)).status).toBe('retrying');
    // The other instance dies before its attempt; the lease ends and the high one is taken over.
    rig.clock.advance(15_001);
    await run();
    expect(texts()).toEqual(['高']);
    await drain(uid); // the low one's slot: a minute (and its margin) after the high one's
    expect(texts()).toEqual(['高', '低']);
  });
});

/** A fresh robot of the kind on its fake: its webhook, what it let through and what it refused. */
const robotOf = (kind: 'dingtalk' | 'wecom' | 'feishu') => {
  const id = unique('robot');
  if (kind === 'dingtalk')
    return { id, url: rig.fake.robot(id), got: () => rig.fake.deliveredTo(id), refused: () => rig.fake.refusedBy(id) };
  if (kind === 'wecom')
    return {
      id,
      url: rig.wecom.robot(id),
      got: () => rig.wecom.deliveredTo(id),
      refused: () => rig.wecom.refusedBy(id),
    };
  return {
    id,
    url: rig.feishu.bot(id),
    got: () => rig.feishu.deliveredTo(id),
    refused: () => rig.feishu.refusedBy(id),
  };
};

/** Delivery rounds, each at the moment the next waiting message is due, until nothing waits. */
async function drain(uid: number): Promise<void> {
  for (let round = 0; round < 100; round++) {
    await run();
    const next = await rig.ctx.db
      .selectFrom('ums_messages')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('user_id', '=', uid)
      .where('status', 'in', ['queued', 'retrying'])
      .executeTakeFirstOrThrow();
    if (!next.at) return;
    rig.clock.t = Math.max(rig.clock.t, new Date(next.at).getTime());
  }
  throw new Error('still waiting after 100 rounds');
}

describe('pacing per robot, whichever channel sends', () => {
  test.each(['dingtalk', 'wecom', 'feishu'] as const)(
    '%s: two channels on one robot, 15 messages each: all 30 delivered, the robot refuses none',
    async (kind) => {
      const robot = robotOf(kind);
      const { client, uid } = await loggedInClient(rig.ctx);
      const one = await addChannel(client, { kind, name: '一', webhook: robot.url });
      const two = await addChannel(client, { kind, name: '二', webhook: robot.url });
      for (let i = 0; i < 15; i++) {
        await sendUi(client, { content: `一 ${i}`, channel: one });
        await sendUi(client, { content: `二 ${i}`, channel: two });
      }
      await drain(uid);
      expect({ delivered: robot.got().length, refused: robot.refused() }).toEqual({ delivered: 30, refused: 0 });
    },
  );

  test('two users’ channels on one robot share its limit too', async () => {
    const robot = robotOf('dingtalk');
    const users = [await loggedInClient(rig.ctx), await loggedInClient(rig.ctx)];
    for (const { client } of users) {
      const channel = await addChannel(client, { kind: 'dingtalk', name: '群', webhook: robot.url });
      for (let i = 0; i < 15; i++) await sendUi(client, { content: `消息 ${i}`, channel });
    }
    await run();
    expect({ delivered: robot.got().length, refused: robot.refused() }).toEqual({ delivered: 20, refused: 0 });
    for (const { uid } of users) await drain(uid);
    expect({ delivered: robot.got().length, refused: robot.refused() }).toEqual({ delivered: 30, refused: 0 });
  });
});

test('channels saved before a kind paced by its robot get the robot’s key when the worker starts', async () => {
  const { client } = await loggedInClient(rig.ctx);
  const token = unique('robot');
  const ids = [
    await addChannel(client, { kind: 'dingtalk', name: '一', webhook: rig.fake.robot(token) }),
    await addChannel(client, { kind: 'dingtalk', name: '二', webhook: `${rig.fake.robot(token)}#same-robot` }),
  ];
  const keys = () =>
    rig.ctx.db.selectFrom('ums_channels').select('pace_key').where('id', 'in', ids).orderBy('id').execute();
  const saved = await keys();
  expect(saved[0].pace_key).toMatch(/^robot:[0-9a-f]{16}$/);
  expect(saved[1].pace_key).toBe(saved[0].pace_key);
  // As a channel saved before: the key it had then, or none.
  await rig.ctx.db
    .updateTable('ums_channels')
    .set({ pace_key: `channel:${ids[0]}` })
    .where('id', '=', ids[0])
    .execute();
  await rig.ctx.db.updateTable('ums_channels').set({ pace_key: null }).where('id', '=', ids[1]).execute();
  expect(await syncPaceKeys(rig.ctx.db, rig.ctx.secrets)).toBeGreaterThanOrEqual(2);
  expect(await keys()).toEqual(saved);
});

describe('pacing with a margin for when a robot counts', () => {
  test('messages that reached the robot late: its 21st never arrives within a minute of them', async () => {
    const robot = robotOf('dingtalk');
    const { client, uid } = await loggedInClient(rig.ctx);
    const channel = await addChannel(client, { kind: 'dingtalk', name: '群', webhook: robot.url });
    for (let i = 0; i < 21; i++) await sendUi(client, { content: `消息 ${i}`, channel });
    rig.fake.hold(robot.id);
    const round = run();
    await until('8 requests in flight', () => rig.fake.held(robot.id) === 8);
    rig.clock.advance(700); // on a loaded server, they reach the robot 0.7 s after their attempts began
    rig.fake.release(robot.id);
    await round;
    await drain(uid);
    expect({ delivered: robot.got().length, refused: robot.refused() }).toEqual({ delivered: 21, refused: 0 });
    const at = robot.got().map((r) => r.at);
    expect(at[20] - at[0]).toBeGreaterThan(60_000);
  });
});
