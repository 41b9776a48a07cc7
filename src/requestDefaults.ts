/**
 * Request and interaction defaults, in one place: everything that fetches
 * or paginates reads these constants instead of repeating numbers.
 */

/** Re-fetch when the window regains focus, at most once per this many ms. */
export const FOCUS_TIMESPAN_MS = 5000;
/** Cached request results stay fresh for 5 minutes. */
export const CACHE_TIME_MS = 5 * 60 * 1000;
/** Lists show this many rows unless the user picks another size. */
export const DEFAULT_PAGE_SIZE = 10;
/** Load-more lists fetch the next page this close (px) to the bottom. */
export const LOAD_MORE_THRESHOLD_PX = 100;
/** Header dropdowns: hover delays in seconds (antd mouseEnterDelay / mouseLeaveDelay). */
export const DROPDOWN_ENTER_DELAY_S = 0.15;
export const DROPDOWN_LEAVE_DELAY_S = 0.1;

/** Global config for useRequest from @umijs/max (provided in src/app.tsx rootContainer). */
export const USE_REQUEST_DEFAULTS = {
  refreshOnWindowFocus: true,
  focusTimespan: FOCUS_TIMESPAN_MS,
  cacheTime: CACHE_TIME_MS,
  defaultPageSize: DEFAULT_PAGE_SIZE,
  threshold: LOAD_MORE_THRESHOLD_PX,
} as const;

/** Spread into every header Dropdown. */
export const DROPDOWN_DELAYS = {
  mouseEnterDelay: DROPDOWN_ENTER_DELAY_S,
  mouseLeaveDelay: DROPDOWN_LEAVE_DELAY_S,
} as const;

/** Spread into ProTable `pagination`. */
export const TABLE_PAGINATION = { defaultPageSize: DEFAULT_PAGE_SIZE, showSizeChanger: true } as const;

/**
 * The request option src/services/call.ts sets from the endpoint's declared access: a 401 from an
 * endpoint that needs a session means the session ended (src/requestErrorConfig.ts). A public
 * endpoint's 401 is a wrong password or code, which its page shows.
 */
export const SESSION_REQUIRED = 'sessionRequired';

/**
 * ProTable `search` of a list whose filters are its point (students, users): all open on a wide
 * screen; on a phone folded to the first, with 展开 (they would fill the screen before the list).
 */
export function searchOpenOnWideScreens() {
  const wide = typeof window !== 'undefined' && window.matchMedia?.('(min-width: 768px)').matches;
  return { labelWidth: 'auto' as const, defaultCollapsed: !wide };
}
