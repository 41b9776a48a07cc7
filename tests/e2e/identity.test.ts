/**
 * Institutional sign-in in Chromium, against a portal of its own (`server/main.ts` on a
 * fresh DATA_DIR, the UI the global set-up built) wired to three real local servers: a CAS server
 * written from the protocol specification (tests/fixtures/fake-cas.ts), an OIDC provider
 * (`oidc-provider`, tests/fixtures/oidc-provider.mjs) and an SMTP server that keeps what it receives
 * (tests/fixtures/mailbox.ts). The browser signs in through CAS (and is signed out by CAS single
 * logout) and through OIDC, sets up TOTP and signs in with a code, and resets a password from the
 * received e-mail.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { authenticator } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { FakeCas } from '../fixtures/fake-cas';
import { linkIn, Mailbox } from '../fixtures/mailbox';
import { startOidcProvider, type OidcFixture } from '../fixtures/oidc';
import { spawnServer, type ServerProcess } from '../server/process';
import { launch, newPage, snap } from './browser';

let browser: Browser;
let cas: FakeCas;
let mailbox: Mailbox;
let idp: OidcFixture;
let server: ServerProcess | undefined;
let portal = '';
let dataDir = '';
const suffix = `${process.pid}${Date.now() % 100000}`;

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  browser = await launch();
  cas = await new FakeCas().start();
  cas.account(`cas${suffix}`, 'cas-password-1', { type: 'staff', cn: '统一认证用户' });
  mailbox = await new Mailbox().start();
  const port = await freePort();
  portal = `http://127.0.0.1:${port}`;
  idp = await startOidcProvider({
    clients: [
      {
        client_id: 'portal-e2e',
        client_secret: 'portal-e2e-client-secret-0123456789',
        redirect_uris: [`${portal}/api/user/sso/oidc/callback`],
      },
    ],
    accounts: [
      {
        username: `oidc${suffix}`,
        password: 'idp-password-1',
        claims: { name: 'OIDC 用户', email: `oidc${suffix}@example.edu` },
      },
    ],
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-identity-'));
  const started = spawnServer({
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_PASSWORD: 'e2e-admin-password',
    REGISTER_RATE_LIMIT: '0',
    PUBLIC_URL: portal,
    CAS_URL: cas.url,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: 'portal-e2e',
    OIDC_CLIENT_SECRET: 'portal-e2e-client-secret-0123456789',
    OIDC_BUTTON: '校园 OIDC 登录',
    SSO_AUTO_CREATE: 'true',
    SSO_ROLE_MAP: 'type=staff:njit',
    SMTP_URL: mailbox.url,
    SMTP_FROM: '统一门户 <portal@example.edu>',
  });
  server = await started.ready;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  await idp?.stop();
  await cas?.stop();
  await mailbox?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A fresh browser context; on failure the error names a screenshot. */
async function withBrowser(name: string, fn: (page: Page) => Promise<void>): Promise<void> {
  const { context, page } = await newPage(browser);
  try {
    await fn(page);
  } catch (err) {
    const file = await snap(page, name).catch(() => 'no screenshot');
    throw new Error(`${(err as Error).message}\n(screenshot: ${file})`);
  } finally {
    await context.close();
  }
}

async function register(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${portal}/user/register`);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await page.getByRole('button', { name: /注\s*册/ }).click();
  await page.waitForURL(`${portal}/home`);
}

async function passwordStep(page: Page, username: string, password: string, redirect = '/home'): Promise<void> {
  await page.goto(`${portal}/user/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

test('signs in through the campus CAS server, account created with the mapped role; CAS single logout ends the session', async () => {
  await withBrowser('identity-cas', async (page) => {
    await page.goto(`${portal}/user/login?redirect=${encodeURIComponent('/user/security')}`);
    await page.getByRole('link', { name: '统一身份认证登录' }).click();
    // The CAS server's own login page.
    await page.waitForURL(new RegExp(`^${cas.url}/login\\?service=`));
    await page.getByLabel('学工号').fill(`cas${suffix}`);
    await page.getByLabel('统一认证密码').fill('cas-password-1');
    await page.getByRole('button', { name: '登录统一身份认证' }).click();
    await page.waitForURL(`${portal}/user/security`);
    await page.locator('header').getByText('统一认证用户').waitFor();
    await page.getByText(`cas${suffix}（统一认证用户）`).waitFor();
    const me = await (await page.request.get(`${portal}/api/user/me`)).json();
    expect(me.data).toMatchObject({ username: `cas${suffix}`, roles: ['njit'] });

    // Signing out at CAS ends the portal session (a back-channel logout request).
    await page.goto(`${cas.url}/logout`);
    await page.getByText('已退出统一身份认证').waitFor();
    expect((await page.request.get(`${portal}/api/user/me`)).status()).toBe(401);
    await page.goto(`${portal}/home`);
    await page.locator('header').getByText('未登录').waitFor();
  });
});

test('a failed CAS sign-in (a forged return) says why in Chinese and signs no one in', async () => {
  await withBrowser('identity-cas-forged', async (page) => {
    await page.goto(`${portal}/api/user/sso/cas/callback?state=${'x'.repeat(43)}&ticket=ST-forged`);
    await page.waitForURL(`${portal}/user/login?sso_error=state`);
    await page.getByText('登录请求已失效或无法确认来自本浏览器，请重新登录').waitFor();
    expect((await (await page.request.get(`${portal}/api/user/me`)).json()).success).toBe(false);
  });
});

test('signs in through the local OIDC provider (authorization code with PKCE)', async () => {
  await withBrowser('identity-oidc', async (page) => {
    await page.goto(`${portal}/user/login?redirect=${encodeURIComponent('/user/me')}`);
    await page.getByRole('link', { name: '校园 OIDC 登录' }).click();
    await page.waitForURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.getByLabel('账号').fill(`oidc${suffix}`);
    await page.getByLabel('口令').fill('idp-password-1');
    await page.getByRole('button', { name: '登录身份提供方' }).click();
    await page.waitForURL(`${portal}/user/me`);
    await page.locator('header').getByText('OIDC 用户').waitFor();
  });
});

test('sets up TOTP (QR code, first code, recovery codes) and then signs in with a code', async () => {
  const username = `totp${suffix}`;
  const password = 'totp-password-1';
  let secret = '';
  let enabledStep = 0;
  await withBrowser('identity-totp-setup', async (page) => {
    await register(page, username, password);
    await page.goto(`${portal}/user/security`);
    await page.getByText('个人 API 令牌不受两步验证影响').waitFor();
    await page.getByRole('button', { name: '开启两步验证' }).click();
    await page.getByAltText('两步验证二维码').waitFor();
    secret = (await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{4})+$/).innerText()).replace(/\s/g, '');
    enabledStep = Math.floor(Date.now() / 30_000);
    await page.getByLabel('验证码').fill(authenticator.generate(secret));
    await page.getByRole('button', { name: /确认开启/ }).click();
    await page.getByText('请立即保存这些恢复码').waitFor();
    expect(await page.getByTestId('recovery-codes').locator('code').count()).toBe(10);
    await page.getByRole('button', { name: /我已保存/ }).click();
    await page.getByText('已开启', { exact: true }).waitFor();
  });

  await withBrowser('identity-totp-login', async (page) => {
    await passwordStep(page, username, password, '/user/security');
    await page.getByText('统一门户 · 两步验证').waitFor();
    // The password alone: no session.
    expect((await (await page.request.get(`${portal}/api/user/me`)).json()).success).toBe(false);
    await page.getByLabel('验证码').fill('000000');
    await page.getByRole('button', { name: /验证并登录/ }).click();
    await page.getByText(/验证码不正确，还可以再试 \d 次/).waitFor();
    // A code of a later step than the one that confirmed the set-up (a code works once).
    const step = Math.max(Math.floor(Date.now() / 30_000), enabledStep + 1);
    await page.getByLabel('验证码').fill(authenticator.clone({ epoch: step * 30_000 }).generate(secret));
    await page.getByRole('button', { name: /验证并登录/ }).click();
    await page.waitForURL(`${portal}/user/security`);
    await page.getByText('已开启', { exact: true }).waitFor();
  });
});

test('verifies an address from the received e-mail, then resets a forgotten password from the received e-mail', async () => {
  const username = `mail${suffix}`;
  const address = `mail${suffix}@example.edu`;
  await withBrowser('identity-mail-verify', async (page) => {
    await register(page, username, 'old-password-1');
    await page.goto(`${portal}/user/security`);
    await page.getByPlaceholder('name@example.edu').fill(address);
    await page.getByRole('button', { name: /发送验证邮件/ }).click();
    const mail = await mailbox.waitFor((m) => m.to.includes(address) && m.subject.includes('验证'));
    await page.goto(linkIn(mail));
    await page.getByText(`${address} 已绑定到你的账号`, { exact: false }).waitFor();
  });

  await withBrowser('identity-mail-reset', async (page) => {
    await page.goto(`${portal}/user/login`);
    await page.getByRole('link', { name: '忘记密码？' }).click();
    await page.waitForURL(`${portal}/user/forgotPassword`);
    await page.getByLabel('用户名或邮箱').fill(address);
    await page.getByRole('button', { name: /发送重置链接/ }).click();
    await page.getByText('请查收邮件').waitFor();
    const mail = await mailbox.waitFor((m) => m.to.includes(address) && m.subject === '统一门户：重置密码');
    expect(mail.text).toContain('30 分钟内有效');
    await page.goto(linkIn(mail));
    await page.getByText(username, { exact: true }).waitFor();
    await page.getByLabel('新密码', { exact: true }).fill('new-password-2');
    await page.getByLabel('确认新密码').fill('new-password-2');
    await page.getByRole('button', { name: /重置密码/ }).click();
    await page.getByText('密码已重置').waitFor();
    await page.getByRole('button', { name: /去登录/ }).click();
    await page.waitForURL(`${portal}/user/login`);
    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('密码', { exact: true }).fill('old-password-1');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByText('用户名或密码错误').waitFor();
    await page.getByLabel('密码', { exact: true }).fill('new-password-2');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(`${portal}/home`);
    // The link worked once.
    await page.goto(linkIn(mail));
    await page.getByText(/重置链接无效、已使用或已过期/).waitFor();
  });
});
