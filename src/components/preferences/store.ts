/**
 * The signed-in user's preferences in the browser: known at once from the browser's copy (stored.ts),
 * then from the server's, which wins unless the user changed something meanwhile. A change shows at
 * once, is copied locally and saved on the server, saves in the order they were made.
 */
import type { Preferences } from '@/contract';
import * as userApi from '@/contract/api/account';
import { DEFAULT_PREFERENCES } from '@/contract/preferenceDefaults';
import { call } from '@/services/call';
import { useSyncExternalStore } from 'react';
import { cachedPreferences, cachePreferences, forgetBootTheme } from './stored';

/** undefined until the app knows who is signed in. */
let uid: number | null | undefined;
let prefs: Preferences = { ...DEFAULT_PREFERENCES };
/** Counts the user's own changes: a server answer asked for before one of them is stale. */
let changes = 0;
let saving: Promise<unknown> = Promise.resolve();
const listeners = new Set<() => void>();

function publish(next: Preferences): void {
  prefs = next;
  listeners.forEach((l) => l());
}

/** Calls the listener on each change of the preferences in force; returns the unsubscribe. */
export function subscribePreferences(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentPreferences = (): Preferences => prefs;

/** The signed-in user whose preferences apply, or null. */
export const currentUserId = (): number | null => uid ?? null;

/** The preferences in force, re-rendering on each change. */
export function usePreferences(): Preferences {
  return useSyncExternalStore(subscribePreferences, currentPreferences);
}

/** Whose preferences apply (null: nobody signed in, the portal's own theme). */
export function followUser(next: number | null): void {
  if (next === uid && next !== null) return;
  uid = next;
  if (next === null) {
    forgetBootTheme();
    publish({ ...DEFAULT_PREFERENCES });
    return;
  }
  publish(cachedPreferences(next));
  const asked = changes;
  // Failing, the browser's copy stays in force: nothing to show the user.
  call(userApi.getPreferences, {}, { skipErrorHandler: true })
    .then((res) => {
      if (uid !== next || changes !== asked || !res?.success) return;
      cachePreferences(next, res.data);
      publish(res.data);
    })
    .catch(() => undefined);
}

/** The user changes some preferences: shown at once, saved in the order made (a failed save is shown by the request layer). */
export function setPreferences(patch: Partial<Preferences>): Promise<unknown> {
  const who = uid;
  if (who == null) return Promise.resolve();
  changes += 1;
  const next = { ...prefs, ...patch };
  cachePreferences(who, next);
  publish(next);
  saving = saving.then(() => call(userApi.putPreferences, { body: next })).catch(() => undefined);
  return saving;
}
