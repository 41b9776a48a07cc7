/**
 * What a first visit downloads, measured in Chromium with a cold cache: every response's bytes on the
 * wire (compressed body + headers, as the browser received them) and, for scripts, their size once
 * decoded. Used by the bundle budget test (budget.test.ts) and `npm run bench:ui-size`.
 */
import type { Browser, Page } from 'playwright-core';

export interface Download {
  path: string;
  type: string;
  /** Body as received (compressed when the server compressed it) plus response headers. */
  wire: number;
  /** Body after decoding. */
  decoded: number;
  encoding: string;
}

export interface FirstVisit {
  downloads: Download[];
  wire: number;
  jsWire: number;
  jsDecoded: number;
  /** ms from navigation start to the moment `ready` was true (a frame-accurate poll). */
  readyMs: number;
}

export async function firstVisit(
  browser: Browser,
  url: string,
  /** Runs in the page; `performance.now()` once the visit counts as done (the login form is visible, say). */
  ready: Ready,
  opts: { width?: number; timeoutMs?: number; readyArg?: string } = {},
): Promise<FirstVisit> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1440, height: 900 }, locale: 'zh-CN' });
  const page: Page = await context.newPage();
  const pending: Promise<Download | null>[] = [];
  // Off once the visit is over: a request finishing after that (a late favicon) was read after the
  // context closed, and its rejection failed the test.
  let measuring = true;
  page.on('requestfinished', (request) => {
    if (!measuring) return;
    pending.push(
      (async () => {
        const response = await request.response();
        if (!response) return null;
        const sizes = await request.sizes();
        const body = await response.body().catch(() => Buffer.alloc(0));
        return {
          path: new URL(request.url()).pathname,
          type: request.resourceType(),
          wire: sizes.responseBodySize + sizes.responseHeadersSize,
          decoded: body.length,
          encoding: (await response.headerValue('content-encoding')) ?? 'identity',
        };
      })(),
    );
  });
  try {
    // From the moment the page commits, not from its load event (goto's default): a page is ready when
    // its form shows, and it can show well before the last chunk or image loads. Waiting for `load`
    // first made the time that of the load event whenever the form was faster.
    await page.goto(url, { waitUntil: 'commit' });
    // A function, not a string: Playwright sends it as a function and calls it on every frame. (A
    // string holding the function's source was an expression whose value, the function, is truthy:
    // the first poll passed whatever the page showed.)
    const readyMs = (await (
      await page.waitForFunction(ready, opts.readyArg, { polling: 'raf', timeout: opts.timeoutMs ?? 30_000 })
    ).jsonValue()) as number;
    await page.waitForLoadState('networkidle');
    measuring = false;
    const downloads = (await Promise.all(pending)).filter((d): d is Download => d !== null);
    const scripts = downloads.filter((d) => d.type === 'script');
    return {
      downloads,
      wire: downloads.reduce((n, d) => n + d.wire, 0),
      jsWire: scripts.reduce((n, d) => n + d.wire, 0),
      jsDecoded: scripts.reduce((n, d) => n + d.decoded, 0),
      readyMs,
    };
  } finally {
    // A visit that failed (a readiness check that timed out, say) leaves reads in flight that fail once
    // the context closes: they are not wanted, and their rejection, unhandled, failed the test that
    // expected the timeout (on a loaded machine, where the page was still loading when it came).
    measuring = false;
    for (const read of pending) read.catch(() => undefined);
    await context.close();
  }
}

/**
 * Runs in the page (serialized by Playwright, so it cannot use anything from this file): the time
 * since navigation (`performance.now()`) once the visit counts as done, else false.
 */
export type Ready = (arg?: string) => number | false;

/** The element `selector` finds is on screen (another app's login form, say). */
export const SELECTOR_VISIBLE: Ready = (selector) => {
  const el = (globalThis as any).document.querySelector(selector);
  return !!el && el.getBoundingClientRect().height > 0 && performance.now();
};

/** The login form's username box is on screen. */
export const LOGIN_FORM_VISIBLE: Ready = () => {
  const el = (globalThis as any).document.querySelector('input[autocomplete="username"]');
  return !!el && el.getBoundingClientRect().height > 0 && performance.now();
};
/** The home page shows its four module cards. */
export const HOME_VISIBLE: Ready = () =>
  (globalThis as any).document.querySelectorAll('.ant-card').length >= 4 && performance.now();
