/**
 * The shell's page tabs in Chromium: a question typed in 在线提问 is still there after opening another
 * page and coming back through its tab (the page was kept, not loaded again), and after a reload the
 * tab and the draft are back; the strip passes axe-core; at 375 px it is a compact switcher; a role
 * taken away by an administrator closes the tab of the page it opened at the page's next call; the
 * browser's back button takes a page's open modal away with its tab (no locked scrolling, the focus on
 * the page shown), and forward brings it back on top.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { BASE, loginAt, runSuffix, sharedBrowser, withPage } from './browser';

const browser = sharedBrowser();
const suffix = runSuffix();
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const QUESTION = '中华人民共和国的首都是哪座城市？（草稿）';

async function axeOn(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include(selector)
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG_TAGS)
    .setLegacyMode(true)
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function signUp(page: Page, name: string): Promise<{ username: string; password: string }> {
  const username = `${name}_${suffix}`;
  const password = 'tabs-password-1';
  const made = await page.request.post(`${BASE()}/api/user/register`, { data: { username, password } });
  expect(made.status()).toBe(200);
  await page.context().clearCookies();
  return { username, password };
}

const tabs = (page: Page) => page.getByRole('tablist', { name: '已打开的页面' }).getByRole('tab');
const question = (page: Page) => page.getByRole('textbox', { name: '题目' });

test('a draft survives switching tabs and a reload', async () => {
  await withPage(browser(), 'tabs-draft', async (page) => {
    const { username, password } = await signUp(page, 'tabs');
    await loginAt(page, username, password, '/OCS/askQuestion');
    await question(page).fill(QUESTION);

    // Another page from the side menu: a second tab, and the question's page is hidden, not gone.
    let asked = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/ocs/queries')) asked += 1;
    });
    await page.getByRole('link', { name: '账单' }).click();
    await page.waitForURL(`${BASE()}/OCS/bill`);
    await page.getByRole('tab', { name: '账单', selected: true }).waitFor();
    await expect(tabs(page).allTextContents()).resolves.toEqual(['首页', '在线提问', '账单']);
    expect(await question(page).count()).toBe(0); // hidden: out of the accessibility tree
    expect(await axeOn(page, '.portal-tabs')).toEqual([]);

    // Back through its tab: the question is there, and the page did not load its history again.
    const before = asked;
    await page.getByRole('tab', { name: /在线提问/ }).click();
    await page.waitForURL(`${BASE()}/OCS/askQuestion`);
    await expect(question(page).inputValue()).resolves.toBe(QUESTION);
    await page.waitForLoadState('networkidle');
    expect(asked).toBe(before);

    // A reload: both tabs and the draft come back.
    await page.reload();
    await page.getByRole('tab', { name: /在线提问/, selected: true }).waitFor();
    await expect(tabs(page).allTextContents()).resolves.toEqual(['首页', '在线提问', '账单']);
    await expect(question(page).inputValue()).resolves.toBe(QUESTION);

    // Closed with Delete: it asks first (the draft is not sent yet), then the draft is gone.
    await page.getByRole('tab', { name: /在线提问/ }).press('Delete');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('「在线提问」中填写的内容尚未提交，关闭后将丢失。').waitFor();
    await dialog.getByRole('button', { name: /关\s*闭/ }).click();
    await page.waitForURL(`${BASE()}/OCS/bill`);
    await expect(tabs(page).allTextContents()).resolves.toEqual(['首页', '账单']);
    await page.goto(`${BASE()}/OCS/askQuestion`);
    await expect(question(page).inputValue()).resolves.toBe('');
  });
});

test('at 375 px the tabs are a compact switcher', async () => {
  const { context, page } = await browser()
    .newContext({ viewport: { width: 375, height: 800 }, locale: 'zh-CN' })
    .then(async (c) => ({ context: c, page: await c.newPage() }));
  try {
    const { username, password } = await signUp(page, 'tabs_phone');
    await loginAt(page, username, password, '/OCS/bill');
    // The bill's tab is open (and kept for the reload below) before the next address is typed in.
    await page.locator('.portal-tabs-select option', { hasText: '账单' }).waitFor({ state: 'attached' });
    await page.goto(`${BASE()}/OCS/askQuestion`);
    const switcher = page.getByRole('combobox', { name: '切换已打开的页面' });
    await switcher.waitFor();
    expect(await page.getByRole('tablist', { name: '已打开的页面' }).count()).toBe(0);
    await switcher.selectOption({ label: '账单' });
    await page.waitForURL(`${BASE()}/OCS/bill`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await axeOn(page, '.portal-tabs')).toEqual([]);
  } finally {
    await context.close();
  }
});

test('a role taken away closes the tab of its page at the next call', async () => {
  // The administrator, through the API: makes an njit user, later takes the role away.
  const login = await fetch(`${BASE()}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: process.env.E2E_ADMIN_PASSWORD }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const admin = (path: string, method: string, json: unknown) =>
    fetch(`${BASE()}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
  const username = `tabs_role_${suffix}`;
  const password = 'tabs-password-2';
  const made = await admin('/api/user/admin/users', 'POST', { username, password, roles: ['njit'] });
  expect(made.status).toBe(200);
  const uid = ((await made.json()) as { data: { uid: number } }).data.uid;

  await withPage(browser(), 'tabs-role', async (page) => {
    // The page's first call (its filters' options) is answered while the role is still there.
    const options = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/njit/options');
    await loginAt(page, username, password, '/njit/queryStuInfo');
    expect((await options).status()).toBe(200);
    await page.getByRole('tab', { name: /学生信息查询/, selected: true }).waitFor();

    expect((await admin(`/api/user/admin/users/${uid}`, 'PATCH', { roles: [] })).status).toBe(200);
    // The page's next call is refused: the shell asks who the user is now and closes the tab.
    await page.getByRole('textbox', { name: '学号' }).fill('2020');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await page.getByText('你已无权访问「学生信息查询」，该页面已关闭').waitFor();
    await page.waitForURL(`${BASE()}/home`);
    await expect(tabs(page).allTextContents()).resolves.toEqual(['首页']);
    // The menu follows too: the lookup is gone from it.
    expect(await page.getByRole('link', { name: '学生信息查询' }).count()).toBe(0);
  });
});

test("the browser's back button takes a page's open modal away with its tab, and forward brings it back", async () => {
  await withPage(browser(), 'tabs-modal', async (page) => {
    const { username, password } = await signUp(page, 'tabs_modal');
    await loginAt(page, username, password, '/UMS/createMessage');
    await page.getByRole('link', { name: '消息模板' }).click();
    await page.waitForURL(`${BASE()}/UMS/templates`);
    await page.getByRole('button', { name: '新建模板' }).click();
    const dialog = page.getByRole('dialog', { name: '新建模板' });
    await dialog.waitFor();
    const bodyOverflow = () => page.evaluate(() => getComputedStyle(document.body).overflowY);
    expect(await bodyOverflow()).toBe('hidden');

    await page.goBack();
    await page.waitForURL(`${BASE()}/UMS/createMessage`);
    const shown = page.locator('#page-panel-_UMS_createMessage');
    await shown.waitFor();
    await page.getByRole('tab', { name: '创建消息', selected: true }).waitFor();
    // Gone with its tab, and the page shown scrolls and takes the focus.
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    expect(await bodyOverflow()).not.toBe('hidden');
    await expect(
      page.evaluate(() => !!document.activeElement?.closest('#page-panel-_UMS_createMessage')),
    ).resolves.toBe(true);
    await shown.getByRole('button').first().click({ trial: true }); // nothing over the page

    await page.goForward();
    await page.waitForURL(`${BASE()}/UMS/templates`);
    await dialog.waitFor();
    expect(await bodyOverflow()).toBe('hidden');
    // Drawn on top, where it was: the point at its middle is the dialog's.
    const box = (await dialog.boundingBox())!;
    await expect(
      page.evaluate(
        ([x, y]) => !!document.elementFromPoint(x, y)?.closest('[role="dialog"]'),
        [box.x + box.width / 2, box.y + box.height / 2],
      ),
    ).resolves.toBe(true);
    await expect(page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).resolves.toBe(true);
    expect(await axeOn(page, '.portal-page-overlays:not([hidden])')).toEqual([]);
  });
});
