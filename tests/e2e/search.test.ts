/**
 * The header's search end to end: an njit user finds a student by the initials of the name (masked) and
 * opens the result with the keyboard, which the NJIT audit log records as a detail view; a plain user
 * finds no student and never asks the NJIT endpoint. axe-core checks the open dialog, on a phone too.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { BASE, launch, loginAt, newPage, runSuffix, withPage } from './browser';

let browser: Browser;
const suffix = runSuffix();
const PASSWORD = 'search-e2e-password';
const STUDENT_NO = `8${suffix}`.slice(0, 20);
let adminCookie = '';

async function api(path: string, init: { method?: string; json?: unknown; body?: FormData } = {}) {
  return fetch(`${BASE()}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie: adminCookie, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : init.body,
  });
}

beforeAll(async () => {
  browser = await launch();
  const login = await fetch(`${BASE()}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: process.env.E2E_ADMIN_PASSWORD }),
  });
  adminCookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const uid = ((await login.json()) as { data: { uid: number } }).data.uid;
  expect(
    (await api(`/api/user/admin/users/${uid}`, { method: 'PATCH', json: { roles: ['admin', 'njit'] } })).status,
  ).toBe(200);
  for (const [name, roles] of [
    [`sn_${suffix}`, ['njit']],
    [`sp_${suffix}`, []],
  ] as const) {
    expect(
      (await api('/api/user/admin/users', { method: 'POST', json: { username: name, password: PASSWORD, roles } }))
        .status,
    ).toBe(200);
  }
  const form = new FormData();
  form.append(
    'file',
    new Blob([`学号,姓名,手机号\r\n${STUDENT_NO},欧阳娜娜,17700001234\r\n`], { type: 'text/csv' }),
    'search.csv',
  );
  const up = await api('/api/njit/imports', { method: 'POST', body: form });
  expect(up.status).toBe(200);
  const { importId } = ((await up.json()) as { data: { importId: string } }).data;
  expect((await api(`/api/njit/imports/${importId}/commit`, { method: 'POST', json: {} })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
});

async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('.ant-modal')
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('an njit user finds a student by initials, masked, and opening it is audited', async () => {
  await withPage(browser, 'search-njit', async (page) => {
    await loginAt(page, `sn_${suffix}`, PASSWORD, '/home');
    // The shortcut is the header icon's: it works once the header's pieces have loaded.
    await page.getByRole('button', { name: '搜索', exact: true }).waitFor();
    await page.keyboard.press('Control+K');
    const box = page.getByRole('combobox', { name: '搜索内容' });
    await box.fill('oynn');
    const option = page.getByRole('option', { name: new RegExp(`欧阳娜娜（${STUDENT_NO}）`) });
    await option.waitFor();
    await expect(option.innerText()).resolves.toContain('177****1234');
    expect(await page.locator('body').innerText()).not.toContain('17700001234');
    await page.getByText(/找到 \d+ 条结果/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The student is the first kind asked for an njit user; Enter opens the active option.
    await expect(box.getAttribute('aria-activedescendant')).resolves.toBe(await option.getAttribute('id'));
    await box.press('Enter');
    await page.waitForURL(/\/njit\/queryStuInfo\?student=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('student'));
    // The NJIT page's drawer, filled from its detail request (the audited view).
    await page.locator('.ant-drawer-title', { hasText: `欧阳娜娜（${STUDENT_NO}）` }).waitFor();
    await page.locator('.ant-drawer').getByText('177****1234').waitFor();
    const audit = (await (await api(`/api/njit/audit?pageSize=50&userName=sn_${suffix}`)).json()) as {
      data: { userName: string; action: string; recordIds: number[] }[];
    };
    const mine = audit.data.filter((a) => a.userName === `sn_${suffix}`);
    expect(mine.map((a) => [a.action, a.recordIds])).toEqual([
      ['detail', [id]],
      ['search', [id]],
    ]);
  });
});

test('a plain user gets no students and never asks for them', async () => {
  await withPage(browser, 'search-plain', async (page) => {
    const njitCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/njit/')) njitCalls.push(r.url());
    });
    await loginAt(page, `sp_${suffix}`, PASSWORD, '/home');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await page.getByRole('combobox', { name: '搜索内容' }).fill('oynn');
    await page.getByText('没有找到与“oynn”相关的结果').waitFor();
    expect(await page.locator('.ant-modal').innerText()).not.toContain('欧阳娜娜');
    expect(njitCalls).toEqual([]);
  });
});

test('at 375 px the dialog fits the screen and axe finds nothing', async () => {
  const { context, page } = await newPage(browser, 375);
  try {
    await loginAt(page, `sn_${suffix}`, PASSWORD, '/home');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await page.getByRole('combobox', { name: '搜索内容' }).fill('zd');
    await page.getByRole('option', { name: /账单/ }).waitFor();
    await page.getByText(/找到 \d+ 条结果|没有找到/).waitFor();
    const box = await page.locator('.ant-modal').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
  } finally {
    await context.close();
  }
});
