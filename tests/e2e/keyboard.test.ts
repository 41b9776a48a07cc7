/**
 * The keyboard alone, as someone who cannot use a mouse: sign in, enter a module, move through the
 * side menu to a page, open the avatar menu and sign out. Every stop on the way shows a focus ring.
 */
import type { Page } from 'playwright-core';
import { BASE, runSuffix, sharedBrowser, withPage } from './browser';

const browser = sharedBrowser();
const suffix = runSuffix();

interface Focused {
  tag: string;
  name: string;
  outline: string;
}

/** What has the focus: its tag, its accessible name (aria-label or text) and its outline. */
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const style = el ? getComputedStyle(el) : null;
    return {
      tag: el?.tagName ?? '',
      name: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').replace(/\s+/g, ''),
      outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : '',
    };
  });

/** Presses Tab until the focus is on what `name` matches (at most `max` presses); that element. */
async function tabTo(page: Page, name: RegExp, max = 60): Promise<Focused> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (name.test(now.name)) {
      // A visible focus ring on every stop, not "outline: none".
      expect(now.outline).not.toMatch(/^none/);
      return now;
    }
    seen.push(`${now.tag}:${now.name.slice(0, 20)}`);
  }
  throw new Error(`Tab never reached ${name}; it went through ${seen.join(', ')}`);
}

test('with the keyboard alone: sign in, enter a module, go through the side menu, sign out', async () => {
  await withPage(browser(), 'keyboard-only', async (page) => {
    const username = `keys_${suffix}`;
    const password = 'keys-password-1';
    // An account to sign in with (registering is not what this test is about).
    const made = await page.request.post(`${BASE()}/api/user/register`, { data: { username, password } });
    expect(made.status()).toBe(200);
    await page.context().clearCookies();

    await page.goto(`${BASE()}/user/login`);
    await page.getByRole('button', { name: /登\s*录/ }).waitFor();
    // The username has the focus on arrival.
    await page.waitForFunction(() => document.activeElement?.getAttribute('autocomplete') === 'username');
    await page.keyboard.type(username);
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('密码');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE()}/home`);
    await page.getByText('登录成功').waitFor();

    // Arriving at a page (typed into the address bar): the first stop is 跳到主要内容; then into a
    // module from its card.
    await page.goto(`${BASE()}/home`);
    await page.getByText('OCS 网课助手').waitFor();
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('跳到主要内容');
    await tabTo(page, /^进入$/); // 用户中心's card comes first
    await tabTo(page, /^进入$/); // OCS 网课助手
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE()}/OCS/overview`);

    // Through the side menu to 账单.
    await page.locator('.ant-pro-sider').waitFor();
    await tabTo(page, /^账单$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${BASE()}/OCS/bill`);
    await page.getByText('积分明细').first().waitFor();

    // The avatar menu: Enter opens it with the focus inside, Esc closes it and gives the focus back.
    const menuButton = await tabTo(page, /的账号菜单$/);
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: '个人中心' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role="menu"]') !== null);
    await page.keyboard.press('Escape');
    await page.getByRole('menuitem', { name: '个人中心' }).waitFor({ state: 'hidden' });
    expect((await focused(page)).name).toBe(menuButton.name);

    // Open it again and sign out: ArrowDown to 退出登录, Enter. The page reloads, signed out.
    await page.keyboard.press(' ');
    await page.getByRole('menuitem', { name: '退出登录' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('[role="menu"]') !== null);
    for (let i = 0; i < 10 && (await focused(page)).name !== '退出登录'; i++) {
      const before = (await focused(page)).name;
      await page.keyboard.press('ArrowDown');
      // The menu moves the focus on the next animation frame, not during the key press.
      await page.waitForFunction(
        (name) => (document.activeElement?.textContent ?? '').replace(/\s+/g, '') !== name,
        before,
      );
    }
    expect((await focused(page)).name).toBe('退出登录');
    const reloaded = page.waitForEvent('load');
    await page.keyboard.press('Enter');
    await reloaded;
    await page.waitForURL(/\/user\/login\?redirect=%2FOCS%2Fbill$/);
  });
});

test('the collapsed side menu: icons only, each entry still named for a screen reader, the name as a tooltip', async () => {
  await withPage(browser(), 'collapsed-menu', async (page) => {
    const made = await page.request.post(`${BASE()}/api/user/register`, {
      data: { username: `fold_${suffix}`, password: 'fold-password-1' },
    });
    expect(made.status()).toBe(200);
    await page.goto(`${BASE()}/OCS/bill`);
    const sider = page.locator('.ant-pro-sider');
    await sider.getByRole('button', { name: '收起侧边菜单' }).click();
    await sider.getByRole('button', { name: '展开侧边菜单' }).waitFor();
    // Remembered across a reload.
    await page.reload();
    await sider.getByRole('button', { name: '展开侧边菜单' }).waitFor();

    // No name shows beside the icons (not even cut to its first character) ...
    const shown = await sider.evaluate(
      (el) =>
        Array.from(el.querySelectorAll<HTMLElement>('[class*="-item-text"]')).filter((t) => t.offsetWidth > 1).length,
    );
    expect(shown).toBe(0);
    // ... yet every entry has its name, a sub-menu's included.
    for (const name of ['返回首页', '概览', '偏好设置', '账单', '在线提问'])
      await expect(sider.getByRole('menuitem', { name, exact: true }).count()).resolves.toBe(1);
    // Pointing at an entry shows its name as a tooltip.
    await sider.getByRole('menuitem', { name: '在线提问' }).hover();
    await page.locator('.ant-tooltip').getByText('在线提问', { exact: true }).waitFor();
  });
});
