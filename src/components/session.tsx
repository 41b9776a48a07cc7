/**
 * The end of a session, seen from the UI: an answer says the caller is no longer signed in (logged out
 * in another tab, expired, disabled by an administrator). It is handled here once for the whole app
 * (the request layer calls endSession(), src/requestErrorConfig.ts): the stored user is cleared, one
 * message says so however many calls failed at once, and the login page opens with the way back.
 */
import { history, useModel } from '@umijs/max';
import { message } from 'antd';
import React, { useEffect } from 'react';
import { rememberUser } from '@/initialState';
import { probeCurrentUser } from '@/services/probes';
import { LOGIN_PATH, loginPath } from './redirect';

export const SESSION_ENDED_TEXT = '登录已过期，请重新登录';
/** One message for any number of calls: antd replaces a message of the same key instead of adding one. */
const MESSAGE_KEY = 'session-ended';

let clearUser: (() => void) | undefined;
let reloadUser: (() => Promise<void>) | undefined;
let reloading = false;

export function endSession(): void {
  const { location } = history;
  // The first failed call takes the visitor to the login page (in place of the page whose session
  // ended: going back leads past it); the others find them there already.
  if (!location.pathname.startsWith(LOGIN_PATH)) history.replace(loginPath(location));
  void message.warning({ content: SESSION_ENDED_TEXT, key: MESSAGE_KEY });
  rememberUser(null);
  clearUser?.();
}

/**
 * A call was refused for the user's role: an administrator may have taken a role away since sign-in.
 * Who the user is now is asked once however many calls were refused, and the shell follows (the menu,
 * the tabs of pages no longer allowed close, the page shows 403).
 */
export function recheckUser(): void {
  if (reloading || !reloadUser) return;
  reloading = true;
  void reloadUser().finally(() => {
    reloading = false;
  });
}

/**
 * Rendered inside the app's state (src/app.tsx `innerProvider`): gives endSession() the way to clear
 * the user the shell reads, which lives in Umi's initialState model and is reachable only from React.
 */
export function SessionBridge({ children }: { children?: React.ReactNode }) {
  const { setInitialState } = useModel('@@initialState');
  useEffect(() => {
    clearUser = () => void setInitialState((s) => ({ ...s, currentUser: null }));
    reloadUser = async () => {
      // Not signed in any more: the next call that needs the session ends it the usual way.
      const user = await probeCurrentUser().then(
        (r) => (r?.success === true ? r.data : null),
        () => null,
      );
      if (!user) return;
      rememberUser(user);
      await setInitialState((s) =>
        String(s?.currentUser?.roles) === String(user.roles) ? s : { ...s, currentUser: user },
      );
    };
    return () => {
      clearUser = undefined;
      reloadUser = undefined;
    };
  }, [setInitialState]);
  return <>{children}</>;
}
