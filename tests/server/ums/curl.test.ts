/**
 * The "done when", against a real server process: for a channel of every kind (DingTalk,
 * WeCom, Feishu, a generic webhook, e-mail), a message created as the UI creates it and one sent with
 * the real `curl` through the ServerChan-compatible URL both reach that channel's fake, and each
 * message's timeline shows its delivered attempt on that kind.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { FakeDingTalk } from '../../fixtures/fake-dingtalk';
import { FakeFeishu } from '../../fixtures/fake-feishu';
import { FakeSmtp } from '../../fixtures/fake-smtp';
import { FakeWebhook } from '../../fixtures/fake-webhook';
import { FakeWeCom } from '../../fixtures/fake-wecom';
import { call, confirmByMail, pushedTo, waitFor, type Session } from '../../fixtures/ums-client';
import { openTestDatabase, type TestDatabase } from '../helpers';
import { spawnServer } from '../process';

const run = promisify(execFile);

test('a UI message and a curl through /<sendkey>.send reach every kind of channel, with their timelines', async () => {
  const [dingtalk, wecom, feishu, hook, smtp] = await Promise.all([
    new FakeDingTalk().start(),
    new FakeWeCom().start(),
    new FakeFeishu().start(),
    new FakeWebhook().start(),
    new FakeSmtp().start(),
  ]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ums-curl-'));
  let database: TestDatabase | null = null;
  const dbEnv: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '' };
  if (process.env.TEST_DATABASE_URL) {
    database = await openTestDatabase();
    Object.assign(dbEnv, { DATABASE_URL: database.url!, PORTAL_SECRET: 'curl-test-secret-0123456789' });
  }
  const server = await spawnServer({
    ...dbEnv,
    UMS_WEBHOOK_ALLOWLIST: [
      `${dingtalk.url}/robot/send`,
      `${wecom.url}/cgi-bin/webhook/send`,
      `${feishu.url}/open-apis/bot/v2/hook/`,
      `${hook.url}/hook/`,
    ].join(','),
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.edu',
    REGISTER_RATE_LIMIT: '0',
    ADMIN_PASSWORD: 'admin-password-1',
  }).ready;
  try {
    const reg = await fetch(`${server.url}/api/user/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `curl_${process.pid}`, password: 'pa55word!' }),
    });
    const session: Session = { url: server.url, cookie: (reg.headers.get('set-cookie') ?? '').split(';')[0] };
    const token = (
      await call(session, 'POST', '/api/user/tokens', { name: 'curl', scopes: ['ums:send'], expiresInDays: null })
    ).data.token as string;

    const kinds = [
      {
        kind: 'dingtalk',
        name: '钉钉',
        webhook: dingtalk.robot('curl-robot', { secret: 'SECcurl' }),
        secret: 'SECcurl',
      },
      { kind: 'wecom', name: '企业微信', webhook: wecom.robot('curl-key-0001') },
      { kind: 'feishu', name: '飞书', webhook: feishu.bot('curl-token-01', { secret: 'fs' }), secret: 'fs' },
      { kind: 'webhook', name: 'Webhook', webhook: hook.endpoint('curl') },
      { kind: 'email', name: '邮件', email: 'curl@example.edu' },
    ];
    const received: Record<string, () => string[]> = {
      dingtalk: () => dingtalk.deliveredTo('curl-robot').map((r) => r.text),
      wecom: () => wecom.deliveredTo('curl-key-0001').map((r) => r.text),
      feishu: () => feishu.deliveredTo('curl-token-01').map((r) => r.text),
      webhook: () => hook.deliveredTo('curl').map((r) => (r.json as { content: string }).content),
      email: () => pushedTo(smtp, 'curl@example.edu').map((m) => m.text),
    };
    const sent: { kind: string; id: number; text: string }[] = [];
    for (const body of kinds) {
      const ch = await call(session, 'POST', '/api/ums/channels', { ...body, isDefault: true });
      expect(ch.success).toBe(true);
      // An e-mail address receives once its owner has opened the link the portal mailed.
      if (body.email) await confirmByMail(server.url, smtp, body.email);
      const ui = await call(session, 'POST', '/api/ums/messages', {
        content: `网页-${body.kind}`,
        channel: ch.data.id,
      });
      sent.push({ kind: body.kind, id: ui.data.id, text: `网页-${body.kind}` });
      // The channel is the default now: the ServerChan URL sends there.
      const { stdout } = await run('curl', [
        '-sS',
        `${server.url}/${token}.send`,
        '--data-urlencode',
        `title=脚本`,
        '--data-urlencode',
        `desp=curl-${body.kind}`,
      ]);
      const answer = JSON.parse(stdout);
      expect(answer).toMatchObject({ code: 0, message: '', data: { error: 'SUCCESS', errno: 0 } });
      sent.push({ kind: body.kind, id: Number(answer.data.pushid), text: `curl-${body.kind}` });
    }

    await waitFor(
      async () => sent.every(({ kind, text }) => received[kind]().some((t) => t.includes(text))),
      'every message at its fake',
      60_000,
    );
    for (const { kind, id } of sent) {
      const m = (await call(session, 'GET', `/api/ums/messages/${id}`)).data;
      expect({ kind, status: m.status }).toEqual({ kind, status: 'delivered' });
      expect(m.attemptLog).toEqual([expect.objectContaining({ outcome: 'delivered', channelKind: kind })]);
    }
    server.proc.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
  } finally {
    server.proc.kill('SIGKILL');
    await Promise.all([dingtalk.stop(), wecom.stop(), feishu.stop(), hook.stop(), smtp.stop()]);
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
