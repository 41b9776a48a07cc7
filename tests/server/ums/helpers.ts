/**
 * UMS test rigs: the app with an injectable clock and a fake DingTalk (startUmsRig), or with a fake of
 * every channel kind — DingTalk, WeCom, Feishu, a webhook receiver and a real SMTP server
 * (startKindsRig) — and users with channels and tokens.
 */
import { FakeDingTalk, type RobotConfig } from '../../fixtures/fake-dingtalk';
import { FakeFeishu } from '../../fixtures/fake-feishu';
import { FakeSmtp } from '../../fixtures/fake-smtp';
import { FakeWebhook } from '../../fixtures/fake-webhook';
import { FakeWeCom } from '../../fixtures/fake-wecom';
import { confirmationToken } from '../../fixtures/ums-client';
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

export interface KindsRig extends UmsRig {
  wecom: FakeWeCom;
  feishu: FakeFeishu;
  hook: FakeWebhook;
  smtp: FakeSmtp;
}

/** The kinds rig's PUBLIC_URL: where confirmation links point. */
export const PORTAL_URL = 'https://portal.example.edu';

/** Every fake on loopback, allow-listed, SMTP_URL pointing at the fake SMTP server; one clock for all. */
export async function startKindsRig(env: Record<string, string> = {}): Promise<KindsRig> {
  const [fake, wecom, feishu, hook, smtp] = await Promise.all([
    new FakeDingTalk().start(),
    new FakeWeCom().start(),
    new FakeFeishu().start(),
    new FakeWebhook().start(),
    new FakeSmtp().start(),
  ]);
  const clock = new TestClock();
  for (const f of [fake, wecom, feishu, hook, smtp]) f.now = () => clock.t;
  const allowlist = [
    `${fake.url}/robot/send`,
    `${wecom.url}/cgi-bin/webhook/send`,
    `${feishu.url}/open-apis/bot/v2/hook/`,
    `${hook.url}/hook/`,
  ].join(',');
  const ctx = await startTestApp(
    {
      UMS_SEND_TIMEOUT_MS: '500',
      UMS_WEBHOOK_ALLOWLIST: allowlist,
      SMTP_URL: smtp.url,
      PUBLIC_URL: PORTAL_URL,
      ...env,
    },
    undefined,
    { clock: clock.now },
  );
  return {
    ctx,
    fake,
    wecom,
    feishu,
    hook,
    smtp,
    clock,
    async close() {
      await ctx.close();
      await Promise.all([fake.stop(), wecom.stop(), feishu.stop(), hook.stop(), smtp.stop()]);
    },
  };
}

/** How many messages the user has (in that status). */
export async function messageCount(rig: UmsRig, userId: number, status?: string): Promise<number> {
  const row = await rig.ctx.db
    .selectFrom('ums_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .$if(status !== undefined, (q) => q.where('status', '=', status!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Polls (bounded: 20 s) until the condition holds: for what happens in real time, such as requests in flight. */
export async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 20_000; !(await check());) {
    if (Date.now() > deadline) throw new Error(`not within 20 s: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Opens the last confirmation link mailed to the address (no session: its owner need not be a user). */
export async function confirmAddress(rig: KindsRig, address: string): Promise<void> {
  const token = confirmationToken(rig.smtp, address.toLowerCase());
  const res = await rig.ctx.app.inject({ method: 'POST', url: '/api/ums/email/confirm', payload: { token } });
  if (res.statusCode !== 200) throw new Error(`confirm: ${res.body}`);
}

/** An e-mail channel whose address's owner has agreed, by the link the portal mailed. */
export async function addConfirmedEmail(rig: KindsRig, client: Client, body: Record<string, unknown>): Promise<number> {
  const id = await addChannel(client, { kind: 'email', ...body });
  await confirmAddress(rig, String(body.email));
  return id;
}

/** Adds a channel for the client; throws with the answer when it is refused. */
export async function addChannel(client: Client, body: Record<string, unknown>): Promise<number> {
  const res = await client.post('/api/ums/channels', body);
  if (res.statusCode !== 200) throw new Error(`channel: ${res.body}`);
  return res.json().data.id;
}
