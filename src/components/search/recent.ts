/**
 * The searches a user opened a result of, newest first, kept in this browser per user (localStorage):
 * shown while the search box is empty.
 */
const MAX_RECENT = 8;
const keyOf = (uid: number) => `portal:search-recent:${uid}`;

export function recentSearches(uid: number): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(keyOf(uid)) ?? '[]');
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string').slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

export function rememberSearch(uid: number, q: string): void {
  const words = q.trim();
  if (!words) return;
  const next = [words, ...recentSearches(uid).filter((s) => s !== words)].slice(0, MAX_RECENT);
  try {
    localStorage.setItem(keyOf(uid), JSON.stringify(next));
  } catch {
    // Storage full or refused (private mode): the search works without its history.
  }
}

export function forgetSearches(uid: number): void {
  try {
    localStorage.removeItem(keyOf(uid));
  } catch {
    // As above.
  }
}
