/**
 * A form's draft, kept while its page's tab is open: the values typed so far are saved per user and
 * page in this browser tab's sessionStorage as they change, so a reload puts them back, and they are
 * forgotten when the form is sent or its tab closed. sessionStorage, not localStorage: a draft may hold
 * personal text and should not outlive the browser tab on a shared computer, nor a sign-out. Fields whose name says
 * they are secret (password, token, secret) are never kept.
 *
 * The tab strip reads which pages hold unsaved input from here (closing such a tab asks first).
 */
import { rememberedUid } from '@/initialState';
import { useLocation } from '@umijs/max';
import type { FormInstance } from 'antd';
import { useCallback, useEffect, useSyncExternalStore } from 'react';

const SECRET = /password|passwd|token|secret|otp|code/i;
const PREFIX = 'formDraft:';
const keyOf = (uid: number, path: string) => `${PREFIX}${uid}:${path}`;

const dirty = new Set<string>();
const listeners = new Set<() => void>();
let snapshot: ReadonlySet<string> = new Set();

function setDirty(path: string, on: boolean): void {
  if (dirty.has(path) === on) return;
  if (on) dirty.add(path);
  else dirty.delete(path);
  snapshot = new Set(dirty);
  listeners.forEach((l) => l());
}

/** Whether the page at `path` holds input not sent yet. */
export const hasUnsavedInput = (path: string) => dirty.has(path);

/** The paths with unsaved input, for React (the strip marks their tabs). */
export function useUnsavedPaths(): ReadonlySet<string> {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => snapshot,
  );
}

/** After a reload: the pages among `paths` with a draft kept hold unsaved input before they are shown. */
export function markKeptDrafts(uid: number, paths: string[]): void {
  for (const path of paths) {
    try {
      if (sessionStorage.getItem(keyOf(uid, path)) !== null) setDirty(path, true);
    } catch {
      // Storage disabled: no draft was kept.
    }
  }
}

/** Drops a page's draft: its tab was closed. */
export function forgetDraft(uid: number, path: string): void {
  setDirty(path, false);
  try {
    sessionStorage.removeItem(keyOf(uid, path));
  } catch {
    // Storage disabled: nothing was kept.
  }
}

/** Signed out (or the session ended): no draft stays behind for the next person at this computer. */
export function forgetAllDrafts(): void {
  try {
    Object.keys(sessionStorage)
      .filter((k) => k.startsWith(PREFIX))
      .forEach((k) => sessionStorage.removeItem(k));
  } catch {
    // Storage disabled: nothing was kept.
  }
  for (const path of [...dirty]) setDirty(path, false);
}

/** Plain values only (text, numbers, choices): a date picker's object or a file is not restored. */
function keepable(values: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (SECRET.test(name) || value === undefined) continue;
    const plain =
      value === null ||
      ['string', 'number', 'boolean'].includes(typeof value) ||
      (Array.isArray(value) && value.every((v) => ['string', 'number'].includes(typeof v)));
    if (plain) kept[name] = value;
  }
  return kept;
}

/**
 * Keeps `form`'s draft for the page it is on. Pass `onValuesChange` to the Form and, once the form is
 * sent, call `clear()` (the form is reset too: its tab stays open and should not show what was sent) or
 * `forget()` (the form keeps showing it).
 */
export function useFormDraft<V extends object>(form: FormInstance<V>) {
  const { pathname } = useLocation();
  // The signed-in user's mirror (src/initialState.ts): the page's user while the page is open.
  const uid = rememberedUid() ?? undefined;

  useEffect(() => {
    if (uid === undefined) return;
    try {
      const saved = JSON.parse(sessionStorage.getItem(keyOf(uid, pathname)) ?? 'null');
      if (saved && typeof saved === 'object' && !Array.isArray(saved)) {
        form.setFieldsValue(keepable(saved) as Parameters<typeof form.setFieldsValue>[0]);
        setDirty(pathname, true);
      }
    } catch {
      // A draft that cannot be read is dropped: the form starts empty.
    }
  }, [form, uid, pathname]);

  const onValuesChange = useCallback(() => {
    const touched = form.isFieldsTouched();
    setDirty(pathname, touched);
    if (uid === undefined) return;
    try {
      if (touched) sessionStorage.setItem(keyOf(uid, pathname), JSON.stringify(keepable(form.getFieldsValue(true))));
      else sessionStorage.removeItem(keyOf(uid, pathname));
    } catch {
      // Storage full or disabled: the draft lasts as long as the tab.
    }
  }, [form, uid, pathname]);

  /** The form was sent and still shows what was sent (a query to refine): no draft any more. */
  const forget = useCallback(() => {
    if (uid !== undefined) forgetDraft(uid, pathname);
    else setDirty(pathname, false);
  }, [uid, pathname]);

  /** The form was sent and starts over. */
  const clear = useCallback(() => {
    form.resetFields();
    forget();
  }, [form, forget]);

  return { onValuesChange, clear, forget };
}
