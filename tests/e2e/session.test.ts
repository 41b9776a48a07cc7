/**
 * A session that ends while its page is open (signed out everywhere from another browser): the next
 * call the page makes says so once — 登录已过期，请重新登录 — and the login page opens with the way
 * back; no page shows an error or an empty list of its own. And a visitor's first look logs nothing.
 */
import { BASE, fillLogin, runSuffix, sharedBrowser, withPage } from './browser';

const browser = sharedBrowser();
const suffix = runSuffix();

test('a session ended from another browser: one message, the login page with the way back, and back again', async () => {
  await withPage(browser(), 'session-ended', async (page) => {
    const username = `ended_${suffix}`;
    const password = 'ended-password-1';
    const made = await page.request.post(`${BASE()}/api/user/register`, { data: { username, password } });
    expect(made.status()).toBe(200);

    // The page's own first calls (the list and the bell's count) are answered before the session ends:
    // on a slow CPU the table was drawn, and the network idle, before the page had made them, and their
    // 401 then sent it to the login page before the click below.
    const answered = (path: string) => page.waitForResponse((r) => new URL(r.url()).pathname === path, { timeout: 0 });
    const firstCalls = Promise.all([answered('/api/ums/messages'), answered('/api/notifications/unread-count')]);
    await page.goto(`${BASE()}/UMS/queryMessage`);
    await firstCalls;
    await page.locator('.ant-pro-table').waitFor();
    await page.waitForLoadState('networkidle');

    // Another browser signs in as the same user and ends every other session.
    const other = await browser().newContext();
    try {
      const login = await other.request.post(`${BASE()}/api/user/login`, { data: { username, password } });
      expect(login.status()).toBe(200);
      const ended = await other.request.post(`${BASE()}/api/user/sessions/end-others`, { data: {} });
      expect((await ended.json()).data.ended).toBe(1);
    } finally {
      await other.close();
    }

    // The page goes on: another page of the module asks the server, which no longer knows the session.
    await page.locator('.ant-pro-sider').getByRole('link', { name: '概览' }).click();
    await page.waitForURL(`${BASE()}/user/login?redirect=%2FUMS%2Foverview`);
    await page.getByText('登录已过期，请重新登录').waitFor();
    expect(await page.getByText('登录已过期，请重新登录').count()).toBe(1);
    // No message of the page's own and no empty list in its place.
    expect(await page.getByText('请先登录').count()).toBe(0);
    expect(await page.getByText(/没有符合条件/).count()).toBe(0);

    // Signing in again leads back to the page.
    await fillLogin(page, username, password);
    await page.waitForURL(`${BASE()}/UMS/overview`);
    await page.locator('header').getByText(username).waitFor();
  });
});

test("a visitor's first visit logs nothing in the console: 'nobody signed in' is not an error", async () => {
  await withPage(browser(), 'visitor-console', async (page) => {
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const me = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/me');
    await page.goto(`${BASE()}/home`);
    expect((await me).status()).toBe(200);
    await page.locator('header').getByText('未登录').waitFor();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
});
