/** UMS test rig: the app with an injectable clock, a fake DingTalk, a user with a channel and a token. */
import { FakeDingTalk, type RobotConfig } from '../../fixtures/fake-dingtalk';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';

export class TestClock {
  constructor(public t = Date.now()) {}
  now = () => new Date(this.t);
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface UmsRig {
  ctx: TestContext;
  fake: FakeDingTalk;
  clock: TestClock;
  close(): Promise<void>;
}

/** `env.UMS_WEBHOOK_ALLOWLIST` adds bases to the fake robot's, which is always allowed. */
export async function startUmsRig(env: Record<string, string> = {}): Promise<UmsRig> {
  const fake = await new FakeDingTalk().start();
  const clock = new TestClock();
  fake.now = () => clock.t;
  const allowlist = [`${fake.url}/robot/send`, env.UMS_WEBHOOK_ALLOWLIST].filter(Boolean).join(',');
  const ctx = await startTestApp({ UMS_SEND_TIMEOUT_MS: '500', ...env, UMS_WEBHOOK_ALLOWLIST: allowlist }, undefined, {
    clock: clock.now,
  });
  return {
    ctx,
    fake,
    clock,
    async close() {
      await ctx.close();
      await fake.stop();
    },
  };
}

let robots = 0;

/** A logged-in user with one channel bound to a fresh fake robot. */
export async function userWithChannel(
  rig: UmsRig,
  robot: RobotConfig = {},
  channel: { secret?: string; keyword?: string } = {},
): Promise<{ client: Client; uid: number; robotToken: string; channelId: number }> {
  const { client, uid } = await loggedInClient(rig.ctx);
  robots += 1;
  const robotToken = `robot${process.pid}x${robots}`;
  const webhook = rig.fake.robot(robotToken, robot);
  const res = await client.post('/api/ums/channels', { name: `机器人${robots}`, webhook, ...channel });
  if (res.statusCode !== 200) throw new Error(`channel: ${res.body}`);
  return { client, uid, robotToken, channelId: res.json().data.id };
}

export async function sendUi(client: Client, body: Record<string, unknown>): Promise<number> {
  const res = await client.post('/api/ums/messages', body);
  if (res.statusCode !== 200) throw new Error(`send: ${res.body}`);
  return res.json().data.id;
}

export async function message(client: Client, id: number) {
  return (await client.get(`/api/ums/messages/${id}`)).json().data;
}
