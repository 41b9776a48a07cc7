/**
 * A user's preferences in Chromium: dark mode chosen from 偏好设置 (by keyboard) holds across a reload
 * from the first frame, before any of the page's own requests; a column hidden through a table's
 * column settings stays hidden after a reload; the drawer passes axe-core in both themes; a toast
 * (antd's static message, rendered outside the app's tree) is dark too.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { BASE, loginAt, runSuffix, sharedBrowser, withPage } from './browser';

const browser = sharedBrowser();
const suffix = runSuffix();
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function axeOnDrawer(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('.ant-drawer-open')
    .options({ resultTypes: ['violations'] })
    .withTags(WCAG_TAGS)
    .setLegacyMode(true)
    .analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The page's background in its first frame (recorded by an init script before any of the page's scripts). */
const firstFrameBackground = (page: Page) =>
  page.evaluate(() => (window as unknown as { __firstFrame: Promise<string> }).__firstFrame);

/** A colour the eye reads as dark; a transparent one shows the browser's white canvas. */
const isDark = (rgb: string) => {
  const [r, g, b, a = 1] = (rgb.match(/[\d.]+/g) ?? []).map(Number);
  return a > 0 && r! + g! + b! < 3 * 48;
};

test('dark mode from 偏好设置 holds across a reload from the first frame; a hidden column stays hidden', async () => {
  await withPage(browser(), 'preferences', async (page) => {
    const username = `prefs_${suffix}`;
    const password = 'prefs-password-1';
    const made = await page.request.post(`${BASE()}/api/user/register`, { data: { username, password } });
    expect(made.status()).toBe(200);
    await page.context().clearCookies();
    await page.addInitScript(() => {
      (window as unknown as { __firstFrame: Promise<string> }).__firstFrame = new Promise((resolve) =>
        requestAnimationFrame(() => resolve(getComputedStyle(document.documentElement).backgroundColor)),
      );
    });
    await loginAt(page, username, password, '/user/tokenManage');
    // A token to revoke at the end, for its toast (the table shows it after the reload below).
    const token = await page.request.post(`${BASE()}/api/user/tokens`, {
      data: { name: 'toast', scopes: ['ocs:query'], expiresInDays: null },
    });
    expect(token.status()).toBe(200);
    expect(isDark(await firstFrameBackground(page))).toBe(false);

    // The avatar menu by keyboard: Enter opens it with the focus inside, Enter on 偏好设置 opens the drawer.
    const trigger = page.getByRole('button', { name: `${username}的账号菜单` });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const entry = page.getByRole('menuitem', { name: '偏好设置' });
    await entry.waitFor();
    await entry.press('Enter');
    const drawer = page.getByRole('dialog', { name: '偏好设置' });
    await drawer.waitFor();
    await page.waitForTimeout(500); // the drawer's slide-in animation, for axe's colour checks
    expect(await axeOnDrawer(page)).toEqual([]);

    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/user/preferences') && r.request().method() === 'PUT' && r.status() === 200,
    );
    const darkSwitch = drawer.getByRole('switch', { name: '深色模式' });
    await darkSwitch.focus();
    await page.keyboard.press('Space');
    await saved;
    await expect(darkSwitch.getAttribute('aria-checked')).resolves.toBe('true');
    await page.waitForTimeout(300); // the theme's colour transitions
    expect(await axeOnDrawer(page)).toEqual([]);

    // Esc closes it and the focus is back on the avatar menu's button.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.ant-drawer-open'));
    await page.waitForFunction(
      (name) => document.activeElement?.getAttribute('aria-label') === name,
      `${username}的账号菜单`,
      { timeout: 5000 },
    );

    // Hide 前缀 through the table's column settings (a named button, opened from the keyboard).
    const settings = page.getByRole('button', { name: '列设置' });
    await settings.focus();
    await page.keyboard.press('Enter');
    await page.locator('.ant-tree-treenode').filter({ hasText: '前缀' }).locator('.ant-tree-checkbox').click();
    await expect(page.getByRole('columnheader', { name: '前缀' }).count()).resolves.toBe(0);

    // Reload: dark from the very first frame, before the page's own requests have gone out.
    await page.reload({ waitUntil: 'commit' });
    expect(await firstFrameBackground(page)).toBe('rgb(0, 0, 0)');
    await page.waitForLoadState('domcontentloaded');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).toBe('rgb(0, 0, 0)');

    // Still dark once React has drawn the layout and the server's copy has been read.
    await page.getByRole('columnheader', { name: '名称' }).waitFor();
    await page.waitForLoadState('networkidle');
    const table = await page.evaluate(
      () => getComputedStyle(document.querySelector('.ant-table') as HTMLElement).backgroundColor,
    );
    expect(isDark(table)).toBe(true);
    expect(isDark(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor))).toBe(true);
    // The column stays hidden.
    expect(await page.getByRole('columnheader', { name: '前缀' }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: '名称' }).count()).toBe(1);

    // The toast of revoking the token is dark as well.
    await page
      .getByRole('button', { name: /撤\s*销/ })
      .first()
      .click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /撤\s*销/ })
      .click();
    const toast = page.locator('.ant-message-notice-content').filter({ hasText: '已撤销' });
    await toast.waitFor();
    expect(isDark(await toast.evaluate((e) => getComputedStyle(e).backgroundColor))).toBe(true);
  });
});
