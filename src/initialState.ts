/**
 * The app's initial state: who is logged in. Loaded once at start by getInitialState
 * (src/app.tsx) and mirrored in localStorage under `initialState`.
 */
import type { CurrentUser } from '@/contract';
import { FetchError } from '@/services/http';
import { probeCurrentUser } from '@/services/probes';

export interface InitialState {
  currentUser: CurrentUser | null;
}

export const INITIAL_STATE_KEY = 'initialState';

/** Mirror the user record in localStorage; logged out removes the key. */
export function rememberUser(user: CurrentUser | null): void {
  try {
    if (user) localStorage.setItem(INITIAL_STATE_KEY, JSON.stringify(user));
    else localStorage.removeItem(INITIAL_STATE_KEY);
  } catch {
    // Storage can be disabled (private mode, quota); the in-memory state still works.
  }
}

/** Who is signed in, from the mirror above: for code outside React's tree of the app state. */
export function rememberedUid(): number | null {
  try {
    const uid = JSON.parse(localStorage.getItem(INITIAL_STATE_KEY) ?? 'null')?.uid;
    return typeof uid === 'number' ? uid : null;
  } catch {
    return null;
  }
}

export async function loadInitialState(): Promise<InitialState> {
  let currentUser: CurrentUser | null = null;
  try {
    const res = await probeCurrentUser();
    currentUser = res?.success === true && res.data ? res.data : null;
  } catch (error) {
    // 401 is the ordinary "not logged in" answer; anything else means the call failed.
    if (!(error instanceof FetchError && error.status === 401)) console.error('获取当前用户失败', error);
  }
  rememberUser(currentUser);
  return { currentUser };
}

/**
 * The first load starts before React's first render (src/app.tsx `render`), so the answer is on its
 * way while React starts; before, it was asked for only after React had committed the first screen.
 * The first getInitialState takes that load; later ones (a refresh after signing in) load anew.
 */
let started: Promise<InitialState> | undefined;

export function startLoadingInitialState(): void {
  started ??= loadInitialState();
}

export function takeInitialState(): Promise<InitialState> {
  const pending = started ?? loadInitialState();
  started = undefined;
  return pending;
}
