/**
 * A page chunk that fails to load once (a network blip, a deploy) shows 页面资源加载失败; once the chunk is
 * reachable again, 重试 really loads it — without reloading the page. A chunk that is only slow shows
 * progress at once, then 加载较慢 with 重试, which loads the page anew.
 */
import type { Browser } from 'playwright-core';
import { BASE, launch, withPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

test('重试 after a failed page chunk loads the page', async () => {
  await withPage(browser, 'chunk-retry', async (page) => {
    await page.goto(`${BASE()}/user/login`);
    await page.getByLabel('用户名').waitFor();
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    const registerChunk = /\/p__user__register__index\.[0-9a-f]+\.async\.js$/;
    let failed = 0;
    await page.route(registerChunk, async (route) => {
      failed++;
      await route.abort('connectionreset');
    });
    await page.getByRole('link', { name: /注册/ }).first().click();
    await page.getByText('页面资源加载失败').waitFor();
    expect(failed).toBeGreaterThan(0);

    await page.unroute(registerChunk);
    await page.getByRole('button', { name: '重试' }).click();
    await page.getByLabel('确认密码').waitFor();
    expect(new URL(page.url()).pathname).toBe('/user/register');
    // The same document: the page was not reloaded to get there.
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});

test('a slow page chunk shows progress at once, then 加载较慢 with 重试, which loads the page anew', async () => {
  await withPage(browser, 'chunk-slow', async (page) => {
    await page.goto(`${BASE()}/user/login`);
    await page.getByLabel('用户名').waitFor();
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

    // The register page's chunk is held back (a link that is slow, not broken), until 重试.
    const registerChunk = /\/p__user__register__index\.[0-9a-f]+\.async\.js$/;
    let slow = true;
    await page.route(registerChunk, (route) => (slow ? new Promise<void>(() => undefined) : route.continue()));
    await page.getByRole('link', { name: /注册/ }).first().click();
    await page.getByRole('progressbar', { name: '页面加载中' }).waitFor();
    expect(await page.getByText(/加载较慢/).count()).toBe(0);
    // After about 8 s (waited for, not timed).
    await page.getByText(/加载较慢/).waitFor({ timeout: 30_000 });

    // The held request stays held (it would finish the page by itself): only the reload's goes through.
    slow = false;
    await page.getByRole('button', { name: '重试' }).click();
    await page.getByLabel('确认密码').waitFor();
    expect(new URL(page.url()).pathname).toBe('/user/register');
    // A new document: the page was loaded anew.
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBeUndefined();
  });
});
