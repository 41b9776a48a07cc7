/**
 * The bell's unread count passes axe-core's colour contrast. 通知设置 in Chromium on a 375 px phone:
 * opened and used by keyboard alone, it fits the screen (no sideways scrolling), passes axe-core, saves
 * a kind turned off, gives the focus back on closing, and shows the saved setting after a reload.
 */
import AxeBuilder from '@axe-core/playwright';
import { BASE, loginAt, runSuffix, sharedBrowser, withPage } from './browser';

const browser = sharedBrowser();
const suffix = runSuffix();

test('通知设置 by keyboard at 375 px: fits, passes axe, saves, and keeps it after a reload', async () => {
  await withPage(browser(), 'notification-settings', async (page) => {
    const username = `nset_${suffix}`;
    const password = 'nset-password-1';
    const made = await page.request.post(`${BASE()}/api/user/register`, { data: { username, password } });
    expect(made.status()).toBe(200);
    await page.context().clearCookies();
    await page.setViewportSize({ width: 375, height: 800 });
    await loginAt(page, username, password, '/user/notifications');

    // Signed in from a browser the account did not know (its cookies were cleared): the bell counts the
    // notice, and its count reads against its red.
    const bell = page.getByRole('link', { name: '通知（1 条未读）' });
    await bell.waitFor();
    const badge = await new AxeBuilder({ page })
      .include('a[href="/user/notifications"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .setLegacyMode(true)
      .analyze();
    expect(badge.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.failureSummary).join(', ')}`)).toEqual([]);

    const opener = page.getByRole('button', { name: /通知设置/ });
    await opener.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: '通知设置' });
    const received = drawer.getByRole('switch', { name: '新浏览器登录', exact: true });
    await received.waitFor();
    await page.waitForTimeout(500); // the drawer's slide-in animation, for measuring and axe's colour checks
    const box = (await drawer.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // A plain user: no administrators' kinds.
    await expect(drawer.getByRole('switch', { name: '新的纠错反馈', exact: true }).count()).resolves.toBe(0);
    const axe = await new AxeBuilder({ page })
      .include('.ant-drawer-open')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .setLegacyMode(true)
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

    await received.focus();
    await page.keyboard.press('Space');
    await expect(received.getAttribute('aria-checked')).resolves.toBe('false');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/notifications/preferences') && r.request().method() === 'PUT' && r.status() === 200,
    );
    await drawer.getByRole('button', { name: /保\s*存/ }).focus();
    await page.keyboard.press('Enter');
    await saved;
    await page.getByText('通知设置已保存').waitFor();
    await page.waitForFunction(() => !document.querySelector('.ant-drawer-open'));
    // The focus is back where the drawer was opened from.
    await page.waitForFunction(() => document.activeElement?.textContent?.includes('通知设置'), undefined, {
      timeout: 5000,
    });

    await page.reload();
    await opener.click();
    await expect(
      page
        .getByRole('dialog', { name: '通知设置' })
        .getByRole('switch', { name: '新浏览器登录', exact: true })
        .getAttribute('aria-checked'),
    ).resolves.toBe('false');
  });
}, 120_000);
