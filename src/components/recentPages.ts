/**
 * The pages a user opened lately, kept in this browser per user (localStorage) for the home page's
 * 最近访问. The shell records every route change (src/app.tsx onRouteChange); the home page shows only
 * those the user may still open, from the route table. Kept small: the last few addresses, no titles
 * (the route table names them when shown) and no query strings (they may carry ids or secrets).
 */
import { rememberedUid } from '@/initialState';

/** More than the home page shows, so pages closed to the user since do not empty the list. */
const KEEP = 12;
const keyOf = (uid: number) => `recentPages:${uid}`;

export function recentPaths(uid: number): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(keyOf(uid)) ?? '[]');
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string').slice(0, KEEP) : [];
  } catch {
    return [];
  }
}

/** Puts `pathname` first in the signed-in user's list (once); a visitor's pages are not kept. */
export function rememberVisit(pathname: string): void {
  const uid = rememberedUid();
  if (uid === null || pathname === '/home' || pathname === '/') return;
  try {
    const next = [pathname, ...recentPaths(uid).filter((p) => p !== pathname)].slice(0, KEEP);
    localStorage.setItem(keyOf(uid), JSON.stringify(next));
  } catch {
    // Storage can be disabled or full: the list is a convenience.
  }
}
