/** Where to go after login, without an open redirect (the rule itself is shared with the server). */
import { HOME_PATH, LOGIN_PATH, safeRedirect } from '@/contract/redirect';

export { HOME_PATH, LOGIN_PATH, safeRedirect };

/** /user/login?redirect=<path+search> for the page the visitor is on. */
export function loginPath(location: { pathname: string; search?: string }): string {
  const target = `${location.pathname}${location.search ?? ''}`;
  if (!target || target === '/' || target.startsWith(LOGIN_PATH)) return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}
