/**
 * UMS in Chromium, against a portal of its own (`server/main.ts` on a fresh DATA_DIR, the UI
 * the global set-up built) whose channels point at independent fakes on loopback: DingTalk, WeCom,
 * Feishu (checking the signature), a generic webhook receiver and a real SMTP server. A message written
 * in 创建消息 and fanned out to all five reaches every fake, and one sent through the ServerChan-compatible
 * URL reaches the default channel; the message list then shows them delivered, each with its timeline.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { MESSAGE_STATUS_LABELS } from '../../src/contract';
import { FakeDingTalk } from '../fixtures/fake-dingtalk';
import { FakeFeishu } from '../fixtures/fake-feishu';
import { FakeSmtp } from '../fixtures/fake-smtp';
import { FakeWebhook } from '../fixtures/fake-webhook';
import { FakeWeCom } from '../fixtures/fake-wecom';
import { call, confirmByMail, pushedTo, waitFor, type Session } from '../fixtures/ums-client';
import { spawnServer, type ServerProcess } from '../server/process';
import { fillLogin, launch, withPage } from './browser';

let browser: Browser;
let server: ServerProcess | undefined;
let dataDir = '';
const dingtalk = new FakeDingTalk();
const wecom = new FakeWeCom();
const feishu = new FakeFeishu();
const hook = new FakeWebhook();
const smtp = new FakeSmtp();
const username = `ums_e2e_${process.pid}`;
const password = 'pa55word!';

beforeAll(async () => {
  browser = await launch();
  await Promise.all([dingtalk.start(), wecom.start(), feishu.start(), hook.start(), smtp.start()]);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-ums-'));
  server = await spawnServer({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: 'e2e-admin-password',
    REGISTER_RATE_LIMIT: '0',
    UMS_WEBHOOK_ALLOWLIST: [
      `${dingtalk.url}/robot/send`,
      `${wecom.url}/cgi-bin/webhook/send`,
      `${feishu.url}/open-apis/bot/v2/hook/`,
      `${hook.url}/hook/`,
    ].join(','),
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://portal.example.edu',
  }).ready;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  await Promise.all([dingtalk.stop(), wecom.stop(), feishu.stop(), hook.stop(), smtp.stop()]);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a message written in the UI fans out to five kinds of channel, and a ServerChan URL reaches the default one', async () => {
  const portal = server!.url;
  const reg = await fetch(`${portal}/api/user/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(reg.status).toBe(200);
  const session: Session = { url: portal, cookie: (reg.headers.get('set-cookie') ?? '').split(';')[0] };
  const channels = [
    { kind: 'dingtalk', name: 'E2E钉钉', webhook: dingtalk.robot('e2e-robot', { secret: 'SECe2e' }), secret: 'SECe2e' },
    { kind: 'wecom', name: 'E2E企业微信', webhook: wecom.robot('e2e-key-0001') },
    { kind: 'feishu', name: 'E2E飞书', webhook: feishu.bot('e2e-token-01', { secret: 'fs' }), secret: 'fs' },
    { kind: 'webhook', name: 'E2EWebhook', webhook: hook.endpoint('e2e') },
    { kind: 'email', name: 'E2E邮件', email: 'e2e@example.edu' },
  ];
  for (const [i, body] of channels.entries()) {
    const ch = await call(session, 'POST', '/api/ums/channels', { ...body, isDefault: i === 0 });
    expect(ch.success).toBe(true);
    if (body.email) await confirmByMail(portal, smtp, body.email);
  }
  const token = (
    await call(session, 'POST', '/api/user/tokens', { name: 'e2e', scopes: ['ums:send'], expiresInDays: null })
  ).data.token as string;

  const received = () => ({
    dingtalk: dingtalk.deliveredTo('e2e-robot').map((r) => r.text),
    wecom: wecom.deliveredTo('e2e-key-0001').map((r) => r.text),
    feishu: feishu.deliveredTo('e2e-token-01').map((r) => r.text),
    webhook: hook.deliveredTo('e2e').map((r) => (r.json as { content: string }).content),
    email: pushedTo(smtp, 'e2e@example.edu').map((m) => m.text),
  });

  await withPage(browser, 'ums-fanout', async (page) => {
    await page.goto(`${portal}/user/login?redirect=${encodeURIComponent('/UMS/createMessage')}`);
    await fillLogin(page, username, password);
    await page.waitForURL(`${portal}/UMS/createMessage`);
    await page.getByText('同时发到多个渠道').click();
    await page.getByLabel('渠道（可多选）').click();
    for (const { name } of channels) {
      await page.locator('.ant-select-item-option', { hasText: name }).click();
    }
    await page.keyboard.press('Escape');
    await page.getByLabel('标题').fill('网页群发');
    await page.getByLabel('内容').fill('网页写的消息-扇出');
    await page.getByRole('button', { name: /发\s*送/ }).click();
    await page.waitForURL(new RegExp(`${portal}/UMS/queryMessage`));

    await waitFor(
      async () => Object.values(received()).every((texts) => texts.some((t) => t.includes('网页写的消息-扇出'))),
      'the UI message at all five fakes',
      60_000,
    );

    const sc = await fetch(`${portal}/${token}.send?title=${encodeURIComponent('脚本')}&desp=serverchan-e2e`);
    expect(await sc.json()).toMatchObject({ code: 0, data: { error: 'SUCCESS', errno: 0 } });
    await waitFor(
      async () => received().dingtalk.some((t) => t.includes('serverchan-e2e')),
      'the ServerChan message at the default channel (DingTalk)',
      60_000,
    );

    // The list shows all six delivered; each has a timeline with its delivered attempt on its kind.
    await page.goto(`${portal}/UMS/queryMessage`);
    await waitFor(
      async () =>
        (await page.locator('.ant-table-row').filter({ hasText: MESSAGE_STATUS_LABELS.delivered }).count()) === 6,
      'six delivered rows in the list',
      30_000,
    );
    const list = await call(session, 'GET', '/api/ums/messages?current=1&pageSize=20');
    expect(list.data).toHaveLength(6);
    const kinds = new Set<string>();
    for (const m of list.data as { id: number }[]) {
      const detail = (await call(session, 'GET', `/api/ums/messages/${m.id}`)).data;
      expect(detail.status).toBe('delivered');
      expect(detail.attemptLog).toEqual([expect.objectContaining({ outcome: 'delivered' })]);
      kinds.add(detail.attemptLog[0].channelKind);
    }
    expect([...kinds].sort()).toEqual(['dingtalk', 'email', 'feishu', 'webhook', 'wecom']);
  });
}, 180_000);

test('a message that fails for good raises the bell of a tab already open, live, and the notification centre leads to it', async () => {
  const portal = server!.url;
  const login = await fetch(`${portal}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const session: Session = { url: portal, cookie: (login.headers.get('set-cookie') ?? '').split(';')[0] };
  dingtalk.script('e2e-broken', { kind: 'errcode', errcode: 300001 });
  const ch = await call(session, 'POST', '/api/ums/channels', {
    kind: 'dingtalk',
    name: 'E2E坏机器人',
    webhook: dingtalk.robot('e2e-broken'),
  });
  expect(ch.success).toBe(true);
  await withPage(browser, 'ums-bell', async (page) => {
    // What the tab asks of the notification centre: the live count must come without asking.
    const asked: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/notifications')) asked.push(pathname);
    });
    await page.goto(`${portal}/user/login?redirect=${encodeURIComponent('/home')}`);
    await fillLogin(page, username, password);
    await page.waitForURL(`${portal}/home`);
    // Any earlier notification (the sign-in from this browser) is read first, elsewhere: the tab's
    // event stream tells it (no focus, no reload; the bell does not poll while its stream is open).
    await call(session, 'POST', '/api/notifications/read-all', {});
    await page.getByRole('link', { name: '通知', exact: true }).waitFor();
    expect(asked).toContain('/api/notifications/stream');
    const counted = () => asked.filter((p) => p === '/api/notifications/unread-count').length;
    const countedBefore = counted();
    const sent = await call(session, 'POST', '/api/ums/messages', {
      channel: ch.data.id,
      title: '注定失败',
      content: 'bell-e2e',
    });
    expect(sent.success).toBe(true);
    await waitFor(
      async () => (await call(session, 'GET', `/api/ums/messages/${sent.data.id}`)).data.status === 'failed',
      'the message failed for good',
      30_000,
    );
    // The failure reaches the open tab live: no reload, no focus, and the bell did not ask for it.
    await page.getByRole('link', { name: '通知（1 条未读）' }).waitFor();
    expect(counted()).toBe(countedBefore);
    await page.getByRole('link', { name: '通知（1 条未读）' }).click();
    await page.waitForURL(`${portal}/user/notifications`);
    const row = page.locator('.ant-table-row', { hasText: '消息「注定失败」发送失败' });
    await row.getByRole('button', { name: '查看' }).click();
    await page.waitForURL(`${portal}/UMS/queryMessage`);
    await page.getByRole('link', { name: '通知', exact: true }).waitFor();
  });
}, 120_000);
