/** Debian's chromium through playwright-core, with the flags this closed network needs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { track } from '../fixtures/tracked';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const BASE = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run through jest.e2e.config.ts');
  return url;
};

/** Chromium, closed with the test (or file) that launched it even when that fails (tests/fixtures/tracked.ts). */
export async function launch(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const tracked = track('chromium', () => browser.close());
  browser.on('disconnected', () => tracked.forget());
  return browser;
}

/**
 * One Chromium for a test file: launched before its tests and closed after them (even when they
 * fail). Returns a getter: the browser exists only once beforeAll has run.
 */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll');
    return browser;
  };
}

/** A suffix that keeps the accounts a test file makes apart from those of earlier runs. */
export const runSuffix = () => `${process.pid}${Date.now() % 100000}`;

export async function newPage(browser: Browser, width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'zh-CN' });
  const page = await context.newPage();
  return { context, page };
}

/** Saves a screenshot for a human to look at when something fails. */
export async function snap(page: Page, name: string): Promise<string> {
  const dir = path.join(os.tmpdir(), 'portal-e2e-shots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A fresh context for one test; on failure the error names a screenshot of where it stood. */
export async function withPage(browser: Browser, name: string, fn: (page: Page) => Promise<void>): Promise<void> {
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

/** Fills and submits the login form on the page the browser is on. */
export async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('用户名').fill(username);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Logs in through /user/login?redirect=… and waits until the target page has loaded its data. */
export async function loginAt(page: Page, username: string, password: string, redirect: string): Promise<void> {
  await page.goto(`${BASE()}/user/login?redirect=${encodeURIComponent(redirect)}`);
  await fillLogin(page, username, password);
  await page.waitForURL(`${BASE()}${redirect}`);
  // The address changes before the next page's chunk has loaded, and until it has, the login form stays
  // on screen: a field looked up by its label now (用户名) can be the login form's. It was, on a loaded
  // machine: the new page's username stayed empty.
  await page.locator('input[autocomplete="username"]').waitFor({ state: 'detached' });
  await page.waitForLoadState('networkidle'); // the page's own data has loaded
}

/** Runs `attempt` until it passes, at most `attempts` times; the last failure is thrown. */
export async function surely(attempt: () => Promise<void>, attempts: number): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await attempt();
      return;
    } catch (err) {
      if (i >= attempts) throw err;
    }
  }
}

/**
 * Checks a checkbox, trying again when the click did not take (on a loaded CI machine the form under
 * it was once re-rendered between Playwright's click and its look at the state), and fails only when
 * it never sticks.
 */
export async function checkSurely(box: Locator, attempts = 5): Promise<void> {
  await surely(async () => {
    await box.check({ timeout: 5_000 });
    if (!(await box.isChecked())) throw new Error('the checkbox never stayed checked');
  }, attempts);
}

/**
 * Clicks `button` until `took()` sees what the click leads to (a dialog closing, say), trying again
 * when a click did not take: on a loaded CI machine a click on the OK button of an antd confirm
 * dialog that had just opened was once lost, the dialog left open. Fails only when it never takes.
 */
export async function clickSurely(button: Locator, took: () => Promise<unknown>, attempts = 5): Promise<void> {
  await surely(async () => {
    await button.click({ timeout: 5_000 });
    await took();
  }, attempts);
}
