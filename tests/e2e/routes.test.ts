/**
 * Every route of config/routes.ts, opened at 375×812 by an anonymous visitor, a plain user and an
 * administrator: no console error (console.error included, not only uncaught exceptions), no failed
 * /api call the page did not intend, no admin API called for a non-admin, and a document no wider
 * than the screen. A route added later is walked without touching this file.
 *
 * Each role walks in one tab, opening every address afresh in it (a full load: the app starts anew on
 * every page), and the three roles open each page at the same time. A new tab per page cost ~2 s more
 * per visit here (a new renderer each time), two thirds of the walk; a tab holds nothing from one load
 * to the next that a page could lean on, beyond what the role's browser context (cookies, storage)
 * holds anyway.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import routes, { type PortalRoute } from '../../config/routes';
import { BASE, fillLogin, launch, snap } from './browser';

const MOBILE = { width: 375, height: 812 };

/** Every path that renders a page (no redirects, no catch-all, no parameters). */
function pagePaths(list: PortalRoute[]): string[] {
  return list.flatMap((r) => [
    ...(r.component && !r.redirect && r.path !== '*' && !r.path.includes(':') ? [r.path] : []),
    ...pagePaths(r.routes ?? []),
  ]);
}

type Role = 'anonymous' | 'user' | 'admin';

/** Answers a page may meet on purpose: the start-up check of who is logged in, when nobody is. */
function intended(role: Role, method: string, path: string, status: number): boolean {
  return role === 'anonymous' && method === 'GET' && path === '/api/user/me' && status === 401;
}

interface Problems {
  console: string[];
  api: string[];
}

/** Records what goes wrong on the page into the visit's own list (`now()`: each visit starts a new one). */
function watch(page: Page, role: Role, now: () => Problems): void {
  page.on('console', (msg) => {
    // Chromium logs every 4xx/5xx response as a console error of its own; answers are judged below.
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource: the server responded'))
      now().console.push(msg.text().slice(0, 300));
  });
  page.on('pageerror', (err) => now().console.push(`uncaught: ${err.message.slice(0, 300)}`));
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/')) {
      if (res.status() >= 400) now().api.push(`${url.pathname} (a page resource) -> ${res.status()}`);
      return;
    }
    const method = res.request().method();
    if (role !== 'admin' && /^\/api\/(ocs\/admin|user\/admin)\b/.test(url.pathname)) {
      now().api.push(`${method} ${url.pathname} called by a ${role}`);
    }
    if (res.status() >= 400 && !intended(role, method, url.pathname, res.status())) {
      now().api.push(`${method} ${url.pathname} -> ${res.status()}`);
    }
  });
}

let browser: Browser;
const contexts: Record<Role, BrowserContext | null> = { anonymous: null, user: null, admin: null };
const suffix = `${process.pid}${Date.now() % 100000}`;

beforeAll(async () => {
  browser = await launch();
  for (const role of ['anonymous', 'user', 'admin'] as Role[]) {
    const context = await browser.newContext({ viewport: MOBILE, locale: 'zh-CN', isMobile: true, hasTouch: true });
    contexts[role] = context;
    if (role === 'anonymous') continue;
    const page = await context.newPage();
    if (role === 'user') {
      const username = `walker_${suffix}`;
      await page.goto(`${BASE()}/user/register`);
      await page.getByLabel('用户名').fill(username);
      await page.getByLabel('密码', { exact: true }).fill('walker-password-1');
      await page.getByLabel('确认密码').fill('walker-password-1');
      await page.getByRole('button', { name: /注\s*册/ }).click();
    } else {
      await page.goto(`${BASE()}/user/login`);
      await fillLogin(page, 'admin', process.env.E2E_ADMIN_PASSWORD!);
    }
    await page.waitForURL(`${BASE()}/home`);
    await page.close();
  }
});

afterAll(async () => {
  for (const p of Object.values(pages)) await p?.close();
  for (const c of Object.values(contexts)) await c?.close();
  await browser?.close();
});

const paths = [
  '/user/login',
  '/user/register',
  ...pagePaths(routes).filter((p) => !p.startsWith('/user/login') && !p.startsWith('/user/register')),
];

const ROLES: Role[] = ['anonymous', 'user', 'admin'];
const pages = {} as Record<Role, Page>;
const problems = {} as Record<Role, Problems>;

beforeAll(async () => {
  for (const role of ROLES) {
    problems[role] = { console: [], api: [] };
    pages[role] = await contexts[role]!.newPage();
    watch(pages[role], role, () => problems[role]);
  }
});

/** Opens the page in the role's tab and lists what went wrong there (empty: nothing). */
async function visit(role: Role, path: string): Promise<string[]> {
  const page = pages[role];
  problems[role] = { console: [], api: [] };
  await page.goto(`${BASE()}${path}`);
  await page.waitForLoadState('networkidle');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const found = [
    ...problems[role].console.map((c) => `console: ${c}`),
    ...problems[role].api.map((a) => `api: ${a}`),
    ...(overflow > 1 ? [`the document is ${overflow} px wider than the 375 px screen`] : []),
  ];
  // E2E_SHOTS=1 keeps a screenshot of every page walked (for a person to look through; not committed).
  if (process.env.E2E_SHOTS) await snap(page, `page-${role}-${path.replace(/\W+/g, '_')}`);
  if (found.length === 0) return [];
  const shot = await snap(page, `walk-${role}-${path.replace(/\W+/g, '_')}`).catch(() => 'none');
  return [
    `${role} ${path} (landed on ${new URL(page.url()).pathname}):\n  ${found.join('\n  ')}\n(screenshot: ${shot})`,
  ];
}

// The three roles open the same page at once, each in its own tab and browser context: 117 visits took
// 146 s one after another here and 117-130 s three at a time (a visit waits for half a second without
// a request, networkidle, and the two cores are busy meanwhile).
test.each(paths)('%s at 375 px, as an anonymous visitor, a user and an administrator', async (path) => {
  const found = (await Promise.all(ROLES.map((role) => visit(role, path)))).flat();
  if (found.length) throw new Error(found.join('\n'));
});
