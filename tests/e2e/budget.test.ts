/**
 * The first-visit budget: the bytes on the wire and the JavaScript a cold visit to /user/login and
 * /home downloads stay under tests/e2e/budget.json. Deterministic for a given build, so a page that
 * starts pulling a heavy library (or an admin page into umi.js) fails here, not in a user's browser.
 */
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { listenOnLoopback } from '../fixtures/tracked';
import budget from './budget.json';
import { BASE, launch, newPage } from './browser';
import { firstVisit, HOME_VISIBLE, LOGIN_FORM_VISIBLE } from './firstVisit';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const KiB = 1024;

test.each([
  ['/user/login', LOGIN_FORM_VISIBLE],
  ['/home', HOME_VISIBLE],
] as const)('a first visit to %s stays within the budget', async (path, ready) => {
  const limit = budget[path];
  const visit = await firstVisit(browser, `${BASE()}${path}`, ready);
  const listing = visit.downloads
    .sort((a, b) => b.wire - a.wire)
    .map((d) => `${d.path} ${(d.wire / KiB).toFixed(1)} KiB (${d.encoding})`)
    .join('\n  ');
  const context = `\n  ${listing}`;
  // Every script and stylesheet is sent compressed.
  for (const d of visit.downloads.filter((x) => (x.type === 'script' || x.type === 'stylesheet') && x.decoded > 1024)) {
    expect(`${d.path}: ${d.encoding}`).toMatch(/: (br|gzip)$/);
  }
  if (visit.wire > limit.wireKiB * KiB || visit.jsWire > limit.jsWireKiB * KiB) {
    throw new Error(
      `${path}: ${(visit.wire / KiB).toFixed(1)} KiB on the wire (budget ${limit.wireKiB}), ` +
        `${(visit.jsWire / KiB).toFixed(1)} KiB of JavaScript (budget ${limit.jsWireKiB}):${context}`,
    );
  }
});

// The readiness check itself: it once passed on its first poll whatever the page showed (the check
// went to the page as a string whose value, a function, is truthy), so every "form visible" time
// was the time of that first poll.
test('a first visit waits until its readiness check passes', async () => {
  await expect(firstVisit(browser, `${BASE()}/user/login`, () => false, { timeoutMs: 3_000 })).rejects.toThrow(
    /Timeout/,
  );
  const visit = await firstVisit(browser, `${BASE()}/user/login`, LOGIN_FORM_VISIBLE);
  expect(visit.readyMs).toBeGreaterThan(0);
});

// The check runs from the moment the page commits. It once ran only after the load event (page.goto's
// default), so a form that showed before the last chunk or image had loaded was timed at the load
// event. Here the load event cannot come until the check has passed: the page's image is held until
// the check asks for its release. Waiting for `load` first, the visit never finishes.
test('a first visit is ready when its check passes, not at the load event', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    if (req.url === '/held.svg') {
      void held.then(() =>
        res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      );
    } else if (req.url === '/release') {
      release();
      res.end('released');
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><input id="form"><img src="/held.svg">');
    }
  });
  const { port, close } = await listenOnLoopback(server, 'held page');
  try {
    const visit = await firstVisit(
      browser,
      `http://127.0.0.1:${port}/`,
      () => {
        const el = (globalThis as any).document.querySelector('#form');
        if (!el || el.getBoundingClientRect().height === 0) return false;
        void fetch('/release');
        return performance.now();
      },
      { timeoutMs: 10_000 },
    );
    expect(visit.readyMs).toBeGreaterThan(0);
    expect(visit.downloads.map((d) => d.path)).toContain('/held.svg'); // loaded after the check passed
  } finally {
    release();
    await close();
  }
});

// scripts/antd-styles.tsx prebuilds the login page's antd styles; antd then generates none in the
// browser (each one it generates is a <style data-css-hash>). A component added to the page, or a
// theme set in src/app.tsx, without the same change there fails here.
test("the login page's antd styles come prebuilt, none generated in the browser", async () => {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${BASE()}/user/login`);
    await page.waitForFunction(LOGIN_FORM_VISIBLE, undefined, { polling: 'raf' });
    // The page's own requests (the sign-in settings) have answered and rendered.
    await page.waitForLoadState('networkidle');
    const generated = await page.evaluate(() =>
      Array.from(document.querySelectorAll('style[data-css-hash]')).map((s) => s.textContent!.slice(0, 80)),
    );
    expect(generated).toEqual([]);
    const sheets = await page.evaluate(() => Array.from(document.styleSheets).map((s) => s.href ?? ''));
    expect(sheets.some((href) => /\/antd\.[0-9a-f]{8}\.css$/.test(href))).toBe(true);
  } finally {
    await context.close();
  }
});
