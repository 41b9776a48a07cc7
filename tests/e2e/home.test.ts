/**
 * The home page as a dashboard, in Chromium: a signed-in user sees their own balance and the page they
 * opened last among 最近访问, on a phone and on a desktop; an administrator also sees the portal's state;
 * neither page has a WCAG 2.1 A/AA violation axe-core finds, or is wider than the screen.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { BASE, launch, loginAt, runSuffix, snap } from './browser';

let browser: Browser;
const USER = `home_${runSuffix()}`;
const PASSWORD = 'home-e2e-password';
const BALANCE = 37;

async function api(path: string, init: { method?: string; cookie?: string; json?: unknown } = {}) {
  return fetch(`${BASE()}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.json ? { 'content-type': 'application/json', origin: BASE() } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
}

beforeAll(async () => {
  browser = await launch();
  const login = await api('/api/user/login', {
    method: 'POST',
    json: { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD },
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const made = await api('/api/user/admin/users', {
    method: 'POST',
    cookie,
    json: { username: USER, password: PASSWORD, roles: [] },
  });
  expect(made.status).toBe(200);
  const { uid } = ((await made.json()) as { data: { uid: number } }).data;
  const adjusted = await api(`/api/ocs/admin/users/${uid}/adjust`, {
    method: 'POST',
    cookie,
    json: { amount: BALANCE, reason: '首页测试' },
  });
  expect(adjusted.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
});

/** WCAG 2.1 A and AA violations on the page as it stands, and how much wider than the screen it is. */
async function problems(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .analyze();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  return [
    ...axe.violations.map((v) => `axe ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ...(overflow > 1 ? [`${overflow} px wider than the screen`] : []),
  ];
}

/** The dashboard once nothing on it is loading any more (its chunk comes after the page's). */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { name: '我的工作台' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => !document.querySelector('.ant-skeleton-active, .ant-spin-spinning'));
}

async function asUser(
  width: number,
  name: string,
  fn: (page: Page) => Promise<void>,
  user = USER,
  password = PASSWORD,
) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  try {
    await loginAt(page, user, password, '/home');
    await fn(page);
    // E2E_SHOTS=1 keeps a screenshot of the end state (for a person to look at; not committed).
    if (process.env.E2E_SHOTS) await snap(page, `page-${name}`);
  } catch (err) {
    const file = await snap(page, name).catch(() => 'no screenshot');
    throw new Error(`${(err as Error).message}\n(screenshot: ${file})`);
  } finally {
    await context.close();
  }
}

const card = (page: Page, title: string) =>
  page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

test.each([375, 1440])(
  'at %i px a user sees their own balance and their last page, without the admin cards',
  async (width) => {
    await asUser(width, `home-user-${width}`, async (page) => {
      await settled(page);
      await expect(card(page, '我的 OCS').getByText(String(BALANCE), { exact: true }).count()).resolves.toBe(1);
      expect(await card(page, '我的 OCS').getByText('今日查询').count()).toBe(1);
      expect(await page.getByText('OCS 待处理（全站）').count()).toBe(0);
      expect(await page.getByText('消息投递（全站）').count()).toBe(0);
      expect(await problems(page)).toEqual([]);

      // The shell keeps the pages the user opens: the bill is then among 最近访问.
      await page.goto(`${BASE()}/OCS/bill`);
      await page.waitForLoadState('networkidle');
      await page.goto(`${BASE()}/home`);
      await settled(page);
      const recent = page.getByRole('navigation', { name: '最近访问的页面' });
      await recent.getByRole('link', { name: '账单' }).click();
      await page.waitForURL(`${BASE()}/OCS/bill`);
    });
  },
);

test.each([375, 1440])('at %i px an administrator also sees the portal’s state', async (width) => {
  await asUser(
    width,
    `home-admin-${width}`,
    async (page) => {
      await settled(page);
      const review = card(page, 'OCS 待处理（全站）');
      expect(await review.getByRole('link', { name: /^待审核纠错：\d+$/ }).count()).toBe(1);
      expect(await review.getByRole('link', { name: /^未收录题目：\d+$/ }).count()).toBe(1);
      expect(await card(page, '消息投递（全站）').getByText('发件箱待发送').count()).toBe(1);
      expect(await problems(page)).toEqual([]);
    },
    'admin',
    process.env.E2E_ADMIN_PASSWORD!,
  );
});
