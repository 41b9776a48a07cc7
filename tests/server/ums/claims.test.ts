/**
 * Claims across instances (two apps on one database, one clock): a worker claims only the message it
 * is about to attempt, checks its claim again before sending and when recording, so a message is
 * attempted by one worker at a time and only messages in flight when a server dies can arrive twice.
 */
import { sql } from 'kysely';
import { postgresOnly, startTestApp, untilLockWaiters, type TestContext } from '../helpers';
import { message, messageCount, sendUi, startUmsRig, until, userWithChannel, type UmsRig } from './helpers';

const TIMEOUT_MS = 30_000;
const LEASE_MS = TIMEOUT_MS + 5_000;

let rig: UmsRig;
/** A second instance on the same database. */
let other: TestContext;
beforeAll(async () => {
  const env = { UMS_SEND_TIMEOUT_MS: String(TIMEOUT_MS), UMS_ROBOT_PER_MINUTE: '0' };
  rig = await startUmsRig(env);
  other = await startTestApp(
    { ...env, UMS_WEBHOOK_ALLOWLIST: rig.ctx.config.UMS_WEBHOOK_ALLOWLIST },
    { db: rig.ctx.db, close: async () => undefined },
    { clock: rig.clock.now, secrets: rig.ctx.secrets },
  );
});
afterAll(async () => {
  await other?.close();
  await rig?.close();
});

const sending = (uid: number) => messageCount(rig, uid, 'sending');

test('a worker claims only the messages it is sending; another instance takes the rest meanwhile', async () => {
  const { client, uid, robotToken } = await userWithChannel(rig);
  for (let i = 0; i < 20; i++) await sendUi(client, { content: `m${i}` });
  rig.fake.hold(robotToken);
  const ours = rig.ctx.app.umsWorker.runOnce();
  await until('8 requests in flight', () => rig.fake.held(robotToken) === 8);
  expect(await sending(uid)).toBe(8);
  const theirs = other.app.umsWorker.runOnce();
  await until('16 requests in flight', () => rig.fake.held(robotToken) === 16);
  rig.fake.release(robotToken);
  await Promise.all([ours, theirs]);
  const texts = rig.fake.deliveredTo(robotToken).map((r) => r.text);
  expect(texts).toHaveLength(20);
  expect(new Set(texts).size).toBe(20);
  const attempts = await rig.ctx.db
    .selectFrom('ums_attempts as a')
    .innerJoin('ums_messages as m', 'm.id', 'a.message_id')
    .select('a.outcome')
    .where('m.user_id', '=', uid)
    .execute();
  expect(attempts.map((a) => a.outcome)).toEqual(new Array(20).fill('delivered'));
});

test('an attempt that ends after another worker took the message over is recorded, and leaves the message to it', async () => {
  const { client, robotToken } = await userWithChannel(rig);
  const id = await sendUi(client, { content: '接管' });
  rig.fake.hold(robotToken);
  const round = rig.ctx.app.umsWorker.runOnce();
  await until('the request in flight', () => rig.fake.held(robotToken) === 1);
  // This worker stalled past its lease and another claimed the message: what that claim does to the row.
  await rig.ctx.db
    .updateTable('ums_messages')
    .set({ claim_id: sql`gen_random_uuid()`, locked_until: new Date(rig.clock.t + LEASE_MS) })
    .where('id', '=', id)
    .execute();
  rig.fake.release(robotToken);
  await round;
  const m = await message(client, id);
  expect(m.attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual(['delivered']);
  expect(m.status).toBe('sending'); // the other worker's to settle
});

postgresOnly('on PostgreSQL', () => {
  test('a worker whose lease ran out while it waited for its slot does not send: the one that took over does', async () => {
    const { client, robotToken, channelId } = await userWithChannel(rig);
    const id = await sendUi(client, { content: '只发一次' });
    // Something holds the channel's row (another worker reserving on it) while the lease runs out.
    let unblock!: () => void;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const blocker = rig.ctx.db.transaction().execute(async (trx) => {
      await trx.selectFrom('ums_channels').select('id').where('id', '=', channelId).forUpdate().execute();
      await blocked;
    });
    const ours = rig.ctx.app.umsWorker.runOnce();
    await untilLockWaiters(rig.ctx.db, 1);
    rig.clock.advance(LEASE_MS + 1);
    const theirs = other.app.umsWorker.runOnce();
    await untilLockWaiters(rig.ctx.db, 2);
    unblock();
    await Promise.all([blocker, ours, theirs]);
    expect(rig.fake.deliveredTo(robotToken).map((r) => r.text)).toEqual(['只发一次']);
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog).toHaveLength(1);
  });
});

describe('attempts cut short by a server that died', () => {
  /** What a dead instance leaves: the message claimed, its lease run out, its attempt pending. */
  async function leftByDeadInstance() {
    const { client, robotToken, channelId } = await userWithChannel(rig);
    const id = await sendUi(client, { content: '接着发' });
    await rig.ctx.db
      .updateTable('ums_messages')
      .set({
        status: 'sending',
        claim_id: sql`gen_random_uuid()`,
        attempts: 1,
        locked_until: new Date(rig.clock.t - 1),
      })
      .where('id', '=', id)
      .execute();
    await rig.ctx.db
      .insertInto('ums_attempts')
      .values({
        message_id: id,
        channel_id: channelId,
        pace_key: `channel:${channelId}`,
        at: new Date(rig.clock.t - LEASE_MS),
        duration_ms: 0,
        outcome: 'pending',
      })
      .execute();
    return { client, robotToken, id };
  }

  test('taken over by another instance: the pending attempt shows as interrupted, then the new one', async () => {
    const { client, robotToken, id } = await leftByDeadInstance();
    await other.app.umsWorker.runOnce();
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual(['interrupted', 'delivered']);
    expect(m.attemptLog[0].errmsg).toMatch(/服务器在发送途中停止/);
    expect(rig.fake.deliveredTo(robotToken)).toHaveLength(1);
  });

  test('the only instance, restarted: what it left pending shows as interrupted', async () => {
    const { client, id } = await leftByDeadInstance();
    await rig.ctx.app.umsWorker.recoverOrphans();
    expect((await message(client, id)).attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual(['interrupted']);
    await rig.ctx.app.umsWorker.runOnce();
    expect((await message(client, id)).attemptLog.map((a: { outcome: string }) => a.outcome)).toEqual([
      'interrupted',
      'delivered',
    ]);
  });
});
