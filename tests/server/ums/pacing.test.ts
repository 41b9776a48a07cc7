/**
 * Pacing under contention: the most urgent message takes a paced channel's next slot, whichever
 * worker reaches the slot first.
 */
import { loggedInClient } from '../helpers';
import { addChannel, message, sendUi, startKindsRig, type KindsRig } from './helpers';

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
  const { client } = await loggedInClient(rig.ctx);
  const name = unique('h');
  const channel = await addChannel(client, {
    kind: 'webhook',
    name: 'hook',
    webhook: rig.hook.endpoint(name),
    perMinute: 1,
  });
  const texts = () => rig.hook.deliveredTo(name).map((r) => (r.json as { content: string }).content);
  return { client, name, channel, texts };
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
    const { client, channel, texts } = await hookAtOnePerMinute();
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
    rig.clock.advance(60_001); // the low one's slot: a minute after the high one's
    await run();
    expect(texts()).toEqual(['高', '低']);
  });
});
