/**
 * The overflow digest: on a channel with digestAfterSeconds, what pacing would hold longer than that
 * is merged into one markdown digest taking the earliest turn; merged messages wait as `merged`, show
 * the digest's attempts, and take its outcome. A waiting digest takes in what is held back after it.
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

/**
 * The messages pacing held back. Workers deliver a batch concurrently and take pacing turns in the
 * order they reach the channel's lock, not in id order: which ones wait is not fixed, how many is.
 */
async function heldBack(client: Awaited<ReturnType<typeof burstUser>>['client'], ids: number[]) {
  const all = await Promise.all(ids.map((id) => message(client, id)));
  return all.filter((m) => m.status !== 'delivered');
}

let n = 0;
async function burstUser(digestAfterSeconds: number | null = 30) {
  const { client } = await loggedInClient(rig.ctx);
  n += 1;
  const key = `digest${process.pid}-${n}`;
  const channel = await addChannel(client, {
    kind: 'wecom',
    name: '告警群',
    webhook: rig.wecom.robot(key),
    digestAfterSeconds,
  });
  return { client, key, channel };
}

test('a burst past the robot’s 20 a minute: the held-back five go as one digest at the next free turn', async () => {
  const u = await burstUser();
  const ids: number[] = [];
  for (let i = 0; i < 25; i++)
    ids.push(await sendUi(u.client, { title: `告警 ${i}`, content: `磁盘 ${i}`, channel: u.channel }));
  await run();
  expect(rig.wecom.deliveredTo(u.key)).toHaveLength(20);
  const held = await heldBack(u.client, ids);
  const digestId = held[0].digestId;
  expect(digestId).toEqual(expect.any(Number));
  expect(held.map((m) => [m.status, m.digestId])).toEqual(Array(5).fill(['merged', digestId]));
  const digest = await message(u.client, digestId);
  expect(digest).toMatchObject({ source: 'digest', status: 'queued', title: '消息摘要（5 条）', channelId: u.channel });
  // A minute after the first 20 were answered, and the margin of a second.
  expect(new Date(digest.nextAttemptAt).getTime() - rig.clock.t).toBe(61_000);
  for (const m of held) expect(digest.content).toContain(m.content);

  rig.clock.advance(61_001);
  await run();
  const sent = rig.wecom.deliveredTo(u.key);
  expect(sent).toHaveLength(21); // 20 one by one, then one digest instead of five more
  expect(sent[20].text).toContain('5 条消息因发送频率限制合并为一条摘要');
  const after = await message(u.client, held[2].id);
  expect(after).toMatchObject({ status: 'delivered', digestId });
  expect(after.attemptLog).toEqual([expect.objectContaining({ outcome: 'delivered', channelKind: 'wecom' })]);
  expect((await u.client.get('/api/ums/stats')).json().data.byStatus.merged).toBeUndefined();
});

test('a waiting digest takes in later held-back messages; without the option they wait one by one', async () => {
  const u = await burstUser();
  for (let i = 0; i < 23; i++) await sendUi(u.client, { content: `a${i}`, channel: u.channel });
  await run();
  const first = (await u.client.get('/api/ums/messages?status=merged')).json().data[0].digestId;
  await sendUi(u.client, { content: '后来的', channel: u.channel });
  await run();
  const digest = await message(u.client, first);
  expect(digest.title).toBe('消息摘要（4 条）');
  expect(digest.content).toContain('后来的');

  const plain = await burstUser(null);
  for (let i = 0; i < 22; i++) await sendUi(plain.client, { content: `b${i}`, channel: plain.channel });
  await run();
  expect((await plain.client.get('/api/ums/messages?status=merged')).json().total).toBe(0);
  expect((await plain.client.get('/api/ums/messages?status=retrying')).json().total).toBe(2);
});

test('a digest that fails permanently fails what it carried, with the reason', async () => {
  const u = await burstUser();
  const ids: number[] = [];
  for (let i = 0; i < 22; i++) ids.push(await sendUi(u.client, { content: `c${i}`, channel: u.channel }));
  await run();
  const [carried] = await heldBack(u.client, ids);
  rig.wecom.script(u.key, { kind: 'code', code: 40058 });
  rig.clock.advance(61_001);
  await run();
  const m = await message(u.client, carried.id);
  expect(m.status).toBe('failed');
  expect(m.lastError).toMatch(new RegExp(`^摘要 #${m.digestId}：.*40058`));
});

test('digestAfterSeconds is checked: 30 to 3600, null turns it off', async () => {
  const u = await burstUser();
  const patch = (payload: object) =>
    u.client.request({ method: 'PATCH', url: `/api/ums/channels/${u.channel}`, payload });
  expect((await patch({ digestAfterSeconds: 10 })).statusCode).toBe(400);
  expect((await patch({ digestAfterSeconds: 3601 })).statusCode).toBe(400);
  expect((await patch({ digestAfterSeconds: 120 })).json().data.digestAfterSeconds).toBe(120);
  expect((await patch({ digestAfterSeconds: null })).json().data.digestAfterSeconds).toBeNull();
});
