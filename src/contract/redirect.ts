/**
 * Where a sign-in may send the browser afterwards, without an open redirect: the rule the login page
 * applies to its `redirect` parameter, and the server to the `redirect` of a CAS or OIDC sign-in.
 * No zod and no imports: the login page (the first download of most visitors) imports it.
 */

export const LOGIN_PATH = '/user/login';
export const HOME_PATH = '/home';

// Browsers drop tabs/newlines inside URLs and treat "\" like "/", so "/\t/evil.com"
// and "/\evil.com" both become "//evil.com": refuse those characters outright.
// eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
const UNSAFE_CHARS = /[\u0000-\u001f\u007f\\]/;

function isSameOriginPath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//') || UNSAFE_CHARS.test(value)) return false;
  try {
    const base = 'http://portal.invalid';
    return new URL(value, base).origin === base;
  } catch {
    return false;
  }
}

/**
 * The `redirect` value if it is a same-origin relative path (a single leading "/", no scheme, no
 * host), checked both as given and once decoded; otherwise /home. A redirect back to the login page
 * itself also goes home.
 */
export function safeRedirect(raw: string | null | undefined, fallback = HOME_PATH): string {
  if (!raw) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return fallback;
  }
  if (!isSameOriginPath(raw) || !isSameOriginPath(decoded)) return fallback;
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`) || raw.startsWith(`${LOGIN_PATH}/`)) {
    return fallback;
  }
  return raw;
}
