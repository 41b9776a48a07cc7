/**
 * The open page tabs as data: which pages are open, in which order, which was used when; the rules
 * for opening, closing and the cap (the least recently used tab goes first, never the home tab, the
 * current one, or, without asking, one with unsaved input); and the list kept per user in this browser
 * (localStorage), so the tabs come back after a reload. No React here: the strip (PageTabs.tsx) holds
 * the list in its state and calls these.
 */
import type { AccessFlags } from '@/access';
import { matchRoutes } from '@umijs/max';
import routes, { type PortalRoute } from '../../../config/routes';

export interface Tab {
  /** The page's path: one tab per page, whatever its query string. */
  path: string;
  /** The query string it was last shown with (an id the page reads), '' when none. */
  search: string;
  /** When it was last shown, as an ever-growing counter: the cap closes the smallest. */
  used: number;
}

export const HOME_PATH = '/home';
/** More tabs than fit a desktop strip are hard to find again; the oldest untouched one then closes. */
export const MAX_TABS = 10;

interface PageRoute {
  path: string;
  name: string;
  access?: PortalRoute['access'];
  keepAlive?: false;
  module: string;
}

/**
 * The route table's pages that open in the shell, with the access flag each inherits. A name that two
 * modules share (概览) is told apart by its module's first word: OCS 概览, UMS 概览.
 */
function pagesOf(list: PortalRoute[], access: PortalRoute['access'], out: PageRoute[], module = ''): PageRoute[] {
  for (const r of list) {
    const needs = r.access ?? access;
    if (r.routes) pagesOf(r.routes, needs, out, module || (r.name ?? '').split(' ')[0]);
    else if (r.component && r.name && r.layout !== false && r.path !== '*')
      out.push({ path: r.path, name: r.name, access: needs, keepAlive: r.keepAlive, module });
  }
  return out;
}

const PAGES = pagesOf(routes, undefined, []);

/** The page a path shows, if it is one that opens as a tab (not a redirect, not an unknown path). */
export function pageOf(pathname: string): PageRoute | undefined {
  return matchRoutes(PAGES, pathname)?.[0]?.route as PageRoute | undefined;
}

/** Whether the user may still open the tab's page (a role removed since, a different user). */
export function mayOpen(path: string, flags: AccessFlags): boolean {
  const page = pageOf(path);
  return !!page && (!page.access || flags[page.access]);
}

const shared = new Set(PAGES.filter((p, i) => PAGES.findIndex((q) => q.name === p.name) !== i).map((p) => p.name));

/** A tab's title: the page's name, with its module's where another module has a page of that name. */
export function titleOf(path: string): string {
  const page = pageOf(path);
  if (!page) return path;
  return shared.has(page.name) && page.module ? `${page.module} ${page.name}` : page.name;
}

/** Whether the page stays mounted while its tab is in the background (config/routes.ts `keepAlive`). */
export const keptInBackground = (path: string) => pageOf(path)?.keepAlive !== false;

/** The list after showing `path`: its tab is used now (opened at the end if new). Home always leads. */
export function show(tabs: Tab[], path: string, search: string, used: number): Tab[] {
  const withHome = tabs.some((t) => t.path === HOME_PATH) ? tabs : [{ path: HOME_PATH, search: '', used: 0 }, ...tabs];
  const known = withHome.some((t) => t.path === path);
  return known
    ? withHome.map((t) => (t.path === path ? { path, search, used } : t))
    : [...withHome, { path, search, used }];
}

/** The tabs a close takes away, and which the user keeps. The home tab is never closed. */
export function closing(tabs: Tab[], how: 'this' | 'others' | 'right', path: string): Tab[] {
  const at = tabs.findIndex((t) => t.path === path);
  const picked =
    how === 'this'
      ? tabs.filter((t) => t.path === path)
      : how === 'others'
        ? tabs.filter((t) => t.path !== path)
        : tabs.slice(at + 1);
  return picked.filter((t) => t.path !== HOME_PATH);
}

/** The tab to show once `closed` are gone while `active` was shown: its right neighbour, else its left. */
export function nextActive(tabs: Tab[], closed: Tab[], active: string): string {
  if (!closed.some((t) => t.path === active)) return active;
  const at = tabs.findIndex((t) => t.path === active);
  const gone = new Set(closed.map((t) => t.path));
  const right = tabs.slice(at + 1).find((t) => !gone.has(t.path));
  const left = [...tabs.slice(0, at)].reverse().find((t) => !gone.has(t.path));
  return (right ?? left ?? { path: HOME_PATH }).path;
}

/**
 * Over the cap: the least recently used tab to close (never home or the one shown), preferring one
 * without unsaved input; `ask` is set when every candidate has some (the user is asked first).
 */
export function overCap(
  tabs: Tab[],
  active: string,
  dirty: (path: string) => boolean,
): { tab: Tab; ask: boolean } | null {
  if (tabs.length <= MAX_TABS) return null;
  const candidates = tabs.filter((t) => t.path !== HOME_PATH && t.path !== active).sort((a, b) => a.used - b.used);
  const clean = candidates.find((t) => !dirty(t.path));
  if (clean) return { tab: clean, ask: false };
  return candidates[0] ? { tab: candidates[0], ask: true } : null;
}

const keyOf = (uid: number) => `pageTabs:${uid}`;

/** The user's tabs as left in this browser, only those they may still open. */
export function storedTabs(uid: number, flags: AccessFlags): Tab[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(keyOf(uid)) ?? '[]');
    if (!Array.isArray(list)) return [];
    return list
      .filter(
        (t): t is { path: string; search: string } =>
          typeof t?.path === 'string' && typeof t?.search === 'string' && (t.search === '' || t.search.startsWith('?')),
      )
      .filter((t) => mayOpen(t.path, flags))
      .slice(0, MAX_TABS)
      .map((t, i) => ({ path: t.path, search: t.search, used: i - MAX_TABS }));
  } catch {
    return [];
  }
}

export function storeTabs(uid: number, tabs: Tab[]): void {
  try {
    localStorage.setItem(keyOf(uid), JSON.stringify(tabs.map(({ path, search }) => ({ path, search }))));
  } catch {
    // Storage can be disabled or full: the tabs then last as long as the page.
  }
}
