/**
 * Applies the signed-in user's preferences to the whole app (rendered once, in src/app.tsx
 * `innerProvider`, inside the app's state): their antd theme on the app's ConfigProvider (Umi's antd
 * plugin), and the page's own background and colour scheme, which public/theme-boot.js set before the
 * first paint from the browser's copy. Nobody signed in: the portal's own theme.
 */
import { useAntdConfigSetter, useModel } from '@umijs/max';
import React, { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Preferences } from '@/contract';
import { DEFAULT_PREFERENCES } from '@/contract/preferenceDefaults';
import { followUser, usePreferences } from './store';
import { DARK_PAGE_BACKGROUND, themeFor } from './theme';

function paintPage(dark: boolean): void {
  const { style } = document.documentElement;
  style.colorScheme = dark ? 'dark' : '';
  style.backgroundColor = dark ? DARK_PAGE_BACKGROUND : '';
}

const sameLook = (a: Preferences, b: Preferences) =>
  a.dark === b.dark && a.compact === b.compact && a.primaryColor === b.primaryColor;

export default function PreferencesProvider({ children }: { children?: React.ReactNode }) {
  const { initialState } = useModel('@@initialState');
  const setAntdConfig = useAntdConfigSetter();
  const uid = initialState?.currentUser?.uid ?? null;
  // Before the pages' first render: the store holds the user's copy when their first frame is drawn.
  useState(() => followUser(uid));
  useEffect(() => followUser(uid), [uid]);
  const prefs = usePreferences();
  const look = uid === null ? DEFAULT_PREFERENCES : prefs;
  // The look the app's ConfigProvider has: the build's own theme until a user's differs (its
  // stylesheets, prebuilt for the login page, are made for that one).
  const applied = useRef<Preferences>(DEFAULT_PREFERENCES);
  // Before the browser paints the frame React has just committed.
  useLayoutEffect(() => {
    paintPage(look.dark);
    if (sameLook(look, applied.current)) return;
    applied.current = look;
    setAntdConfig({ theme: themeFor(look) });
  }, [look, setAntdConfig]);
  return <>{children}</>;
}
