/**
 * The browser's copy of each user's preferences (localStorage, per user id), and of the last signed-in
 * user's dark mode, which public/theme-boot.js reads before the first paint (no user is known then).
 */
import type { Preferences } from '@/contract';
import { DEFAULT_PREFERENCES, PRIMARY_COLORS } from '@/contract/preferenceDefaults';

/** Read by public/theme-boot.js: keep the name and the `{ dark }` shape in step with it. */
export const BOOT_KEY = 'portal.theme';
const userKey = (uid: number) => `portal.preferences.${uid}`;

/** A stored copy is only believed field by field (another version of the app, or a hand, may have written it). */
function sane(value: unknown): Preferences {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<Record<keyof Preferences, unknown>>;
  const flag = (k: 'dark' | 'compact' | 'siderCollapsed') =>
    typeof v[k] === 'boolean' ? v[k] : DEFAULT_PREFERENCES[k];
  return {
    dark: flag('dark'),
    compact: flag('compact'),
    siderCollapsed: flag('siderCollapsed'),
    primaryColor:
      typeof v.primaryColor === 'string' && v.primaryColor in PRIMARY_COLORS
        ? (v.primaryColor as Preferences['primaryColor'])
        : DEFAULT_PREFERENCES.primaryColor,
  };
}

/** This user's preferences as this browser last saw them, or the defaults. */
export function cachedPreferences(uid: number): Preferences {
  try {
    const text = localStorage.getItem(userKey(uid));
    return text === null ? { ...DEFAULT_PREFERENCES } : sane(JSON.parse(text));
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

export function cachePreferences(uid: number, prefs: Preferences): void {
  try {
    localStorage.setItem(userKey(uid), JSON.stringify(prefs));
    localStorage.setItem(BOOT_KEY, JSON.stringify({ dark: prefs.dark }));
  } catch {
    // Storage can be disabled (private mode, quota): the server keeps the preferences.
  }
}

/** Signed out: the next page starts in the portal's own light theme. */
export function forgetBootTheme(): void {
  try {
    localStorage.removeItem(BOOT_KEY);
  } catch {
    // As above.
  }
}
