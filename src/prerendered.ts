/**
 * The login form as the server sends it, ready-made (scripts/prerender-login.tsx): a static copy of
 * what src/pages/user/login renders first, on screen before any script has run, while #root (the app,
 * still starting) is hidden beside it. It comes down in the same frame as the app's own form goes up:
 * - the login page, when it mounts, takes it (takePrerendered) and carries over what was typed;
 * - anything else that renders in its place drops it (dropPrerendered): another route
 *   (src/app.tsx onRouteChange, the first route included) or an error (ChunkErrorBoundary).
 */

/** The id of the static copy's container (scripts/prerender-login.tsx writes it). */
export const PRERENDERED_ID = 'prerendered';

/** Set on the copy by login.html's starter when 登录 was pressed (or Enter in a field) before the app started. */
export const SUBMITTED_ATTRIBUTE = 'data-submitted';

/** The one path it is sent for (server/plugins/ui.ts). */
export const PRERENDERED_PATH = '/user/login';

export interface TypedBeforeStart {
  username: string;
  password: string;
  /** The field that had the focus, to give it back. */
  focused: 'username' | 'password' | null;
  /** 登录 was pressed (or Enter in a field) before the app had started: noted by login.html's starter. */
  submitted: boolean;
}

const FIELDS = { username: 'input[autocomplete="username"]', password: 'input[autocomplete="current-password"]' };

/** Removes the static copy; what was typed into it (or filled in by the browser), or null without one. */
export function takePrerendered(): TypedBeforeStart | null {
  const copy = document.getElementById(PRERENDERED_ID);
  if (!copy) return null;
  const input = (field: keyof typeof FIELDS) => copy.querySelector<HTMLInputElement>(FIELDS[field]);
  const active = document.activeElement;
  const focused = (field: keyof typeof FIELDS) => active !== null && active === input(field);
  const typed: TypedBeforeStart = {
    username: input('username')?.value ?? '',
    password: input('password')?.value ?? '',
    focused: focused('username') ? 'username' : focused('password') ? 'password' : null,
    submitted: copy.hasAttribute(SUBMITTED_ATTRIBUTE),
  };
  copy.remove();
  return typed;
}

/** Removes the static copy, if it is still there (what was typed in it is dropped with it). */
export function dropPrerendered(): void {
  document.getElementById(PRERENDERED_ID)?.remove();
}
