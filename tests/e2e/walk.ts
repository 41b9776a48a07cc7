/**
 * Every route of config/routes.ts, opened by an anonymous visitor, a plain user, a user with the njit
 * role and an administrator, on a phone (375×812) and on a desktop (1440×900): no console error
 * (console.error included, not only uncaught exceptions), no failed /api call, no admin API called for
 * a non-admin, a document no wider than the screen, and no violation of the WCAG 2.1 A and AA rules
 * axe-core checks (@axe-core/playwright). A route added later is walked without touching this file.
 *
 * Each role walks in one tab per width, opening every address afresh in it (a full load: the app
 * starts anew on every page), and the four roles open each page at the same time. A new tab per page
 * cost ~2 s more per visit here (a new renderer each time); a tab holds nothing from one load to the
 * next that a page could lean on, beyond what the role's browser context (cookies, storage) holds anyway.
 *
 * One test file per width (routes-phone.test.ts, routes-desktop.test.ts), each with its own Chromium
 * and its own accounts, so either width can be run alone.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import routes, { type PortalRoute } from '../../config/routes';
import { BASE, fillLogin, launch, snap } from './browser';

export const WIDTHS = {
  phone: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false },
} as const;
export type Width = keyof typeof WIDTHS;

/** The WCAG 2.1 A and AA rules of axe-core (its best-practice rules are not asked for here). */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Every path that renders a page (no redirects, no catch-all, no parameters). */
function pagePaths(list: PortalRoute[]): string[] {
  return list.flatMap((r) => [
    ...(r.component && !r.redirect && r.path !== '*' && !r.path.includes(':') ? [r.path] : []),
    ...pagePaths(r.routes ?? []),
  ]);
}

/** The access flag each page path needs (children inherit their parent's), '' for none. */
function accessOf(list: PortalRoute[], inherited = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const r of list) {
    const flag = r.access ?? inherited;
    found.set(r.path, flag);
    for (const [path, f] of accessOf(r.routes ?? [], flag)) found.set(path, f);
  }
  return found;
}
const ACCESS = accessOf(routes);
/**
 * Whether the role lacks the flag (src/access.ts): the walker's administrator has no njit role, so no
 * walker holds both that isNjitAdmin asks for.
 */
const lacks = (role: Role, flag: string) =>
  flag !== '' &&
  (role === 'anonymous' ||
    flag === 'isNjitAdmin' ||
    (flag === 'isAdmin' && role !== 'admin') ||
    (flag === 'isNjit' && role !== 'njit'));

type Role = 'anonymous' | 'user' | 'njit' | 'admin';
const ROLES: Role[] = ['anonymous', 'user', 'njit', 'admin'];

interface Problems {
  console: string[];
  api: string[];
}

/** Records what goes wrong on the page into the visit's own list (`now()`: each visit starts a new one). */
async function watch(page: Page, role: Role, now: () => Problems): Promise<void> {
  // What the portal's CSP refuses (an eval, an inline script) is reported to the page, not to its
  // console: it is made a console error here.
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP refused ${e.violatedDirective}: ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    ),
  );
  page.on('console', (msg) => {
    if (msg.type() === 'error') now().console.push(msg.text().slice(0, 300));
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
    if (res.status() >= 400) now().api.push(`${method} ${url.pathname} -> ${res.status()}`);
  });
}

let browser: Browser;
const contexts: BrowserContext[] = [];
const pages = {} as Record<Width, Record<Role, Page>>;
const problems = {} as Record<Width, Record<Role, Problems>>;
/** The pages each role was sent to instead of the one asked for, already analysed by axe. */
const analysed = {} as Record<Width, Record<Role, Set<string>>>;
/**
 * The access flags that turned the role away at this width. Every page behind one flag is refused by
 * the same check before its own code loads (the login page for a visitor, 403 for a missing role): the
 * first refusal of each flag is walked and analysed, the other pages behind that flag are not opened
 * again for that role and width (about a third of the walk's page loads).
 */
const refused = {} as Record<Width, Record<Role, Set<string>>>;
const suffix = `${process.pid}${Date.now() % 100000}`;
const PASSWORD = 'walker-password-1';

/**
 * Signs the context in as `role`: the seeded administrator, a user who registers, or an njit user the
 * administrator makes (through the API, as the user management page does).
 */
async function signIn(context: BrowserContext, role: Role, width: Width, admin?: BrowserContext): Promise<void> {
  if (role === 'anonymous') return;
  const page = await context.newPage();
  const username = role === 'admin' ? 'admin' : `walk_${role}_${width}_${suffix}`;
  if (role === 'user') {
    await page.goto(`${BASE()}/user/register`);
    await page.getByLabel('用户名').fill(username);
    await page.getByLabel('密码', { exact: true }).fill(PASSWORD);
    await page.getByLabel('确认密码').fill(PASSWORD);
    await page.getByRole('button', { name: /注\s*册/ }).click();
  } else {
    if (role === 'njit') {
      const made = await admin!.request.post(`${BASE()}/api/user/admin/users`, {
        data: { username, password: PASSWORD, roles: ['njit'] },
      });
      expect(made.status()).toBe(200);
    }
    await page.goto(`${BASE()}/user/login`);
    await fillLogin(page, username, role === 'admin' ? process.env.E2E_ADMIN_PASSWORD! : PASSWORD);
  }
  await page.waitForURL(`${BASE()}/home`);
  await page.close();
}

const paths = [
  '/user/login',
  '/user/register',
  ...pagePaths(routes).filter((p) => !p.startsWith('/user/login') && !p.startsWith('/user/register')),
];

/** Opens the page in the role's tab and lists what went wrong there (empty: nothing). */
async function visit(width: Width, role: Role, path: string): Promise<string[]> {
  const page = pages[width][role];
  const flag = ACCESS.get(path) ?? '';
  if (lacks(role, flag) && refused[width][role].has(flag)) return [];
  problems[width][role] = { console: [], api: [] };
  await page.goto(`${BASE()}${path}`);
  await page.waitForLoadState('networkidle');
  // Settled: nothing loading any more (a button keeps its loading look a moment after its request),
  // and no finite animation under way: a form's help text fading in is checked by axe at its final
  // colour, not at a mid-fade grey that fails the contrast rule once in a while.
  await page
    .waitForFunction(
      () =>
        !document.querySelector('.ant-btn-loading, .ant-spin-spinning, .ant-skeleton-active') &&
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      null,
      {
        timeout: 10_000,
      },
    )
    .catch(() => undefined);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  // A page the role was sent to instead (the login page for a visitor, 403 for a missing role) is
  // analysed once per role and width: it is the same page each time, only the address differs.
  const landed = new URL(page.url()).pathname;
  const denied = await page.locator('.ant-result-403').count();
  const instead = denied ? '403' : landed !== path ? landed : null;
  if (instead !== null && lacks(role, flag)) refused[width][role].add(flag);
  const seen = analysed[width][role];
  const skipAxe = instead !== null && seen.has(instead);
  if (instead !== null) seen.add(instead);
  // AxeBuilder evaluates axe-core in the page through the DevTools protocol: the portal's CSP, which
  // refuses an injected script tag, does not apply. Legacy mode runs axe.run() in the page itself;
  // the default opens a blank tab per analysis to merge the frames' results (a new renderer each
  // time), and the portal has no frames to merge. Only violations are described node by node (a CSS
  // selector and the HTML of each): every rule still runs on every element, but the thousands of
  // passing nodes are not described and sent back.
  const axe = skipAxe
    ? { violations: [] }
    : await new AxeBuilder({ page })
        .options({ resultTypes: ['violations'] })
        .withTags(WCAG_TAGS)
        .setLegacyMode(true)
        .analyze();
  const found = [
    ...problems[width][role].console.map((c) => `console: ${c}`),
    ...problems[width][role].api.map((a) => `api: ${a}`),
    ...(overflow > 1 ? [`the document is ${overflow} px wider than the screen`] : []),
    ...axe.violations.map(
      (v) =>
        `axe ${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
          .slice(0, 5)
          .map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`)
          .join('\n    ')}`,
    ),
  ];
  // E2E_SHOTS=1 keeps a screenshot of every page walked (for a person to look through; not committed).
  const name = `${width}-${role}-${path.replace(/\W+/g, '_')}`;
  if (process.env.E2E_SHOTS) await snap(page, `page-${name}`);
  if (found.length === 0) return [];
  const shot = await snap(page, `walk-${name}`).catch(() => 'none');
  return [
    `${role} at ${width} ${path} (landed on ${new URL(page.url()).pathname}):\n  ${found.join('\n  ')}\n(screenshot: ${shot})`,
  ];
}

/** Registers the walk of every route at these widths in the calling test file. */
export function walkRoutes(widths: Width[]): void {
  beforeAll(async () => {
    browser = await launch();
    for (const width of widths) {
      pages[width] = {} as Record<Role, Page>;
      problems[width] = {} as Record<Role, Problems>;
      analysed[width] = {} as Record<Role, Set<string>>;
      refused[width] = {} as Record<Role, Set<string>>;
      let admin: BrowserContext | undefined;
      // The administrator first: it makes the njit account.
      for (const role of ['admin', 'anonymous', 'user', 'njit'] as Role[]) {
        const context = await browser.newContext({ ...WIDTHS[width], locale: 'zh-CN' });
        contexts.push(context);
        await signIn(context, role, width, admin);
        if (role === 'admin') admin = context;
        problems[width][role] = { console: [], api: [] };
        analysed[width][role] = new Set();
        refused[width][role] = new Set();
        pages[width][role] = await context.newPage();
        await watch(pages[width][role], role, () => problems[width][role]);
      }
    }
  });

  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
  });

  // The four roles open the same page at once, each in its own tab and browser context: a visit waits
  // for half a second without a request (networkidle), and the two cores are busy meanwhile.
  const cases = paths.flatMap((path) => widths.map((width) => [path, width] as const));
  test.each(cases)('%s on a %s, as a visitor, a user, an njit user and an administrator', async (path, width) => {
    const found = (await Promise.all(ROLES.map((role) => visit(width, role, path)))).flat();
    if (found.length) throw new Error(found.join('\n'));
  });
}
