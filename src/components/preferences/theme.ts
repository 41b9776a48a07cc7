/**
 * The antd theme of a user's preferences: antd's dark and compact algorithms and the chosen primary
 * colour, over the portal's own theme (config/defaultSettings.ts), whose contrast fixes are for a white page.
 *
 * It is set on the app's one ConfigProvider (Umi's antd plugin), whose setter deep-merges a change into
 * what is there: so every theme here carries the same token keys (a key left out would keep the last
 * value), and its algorithm list replaces the last one whole.
 */
import type { Preferences } from '@/contract';
import { theme, type ThemeConfig } from 'antd';
import { antdTheme } from '../../../config/defaultSettings';

/** Under the dark algorithm: the page's background before React draws it (public/theme-boot.js uses the same). */
export const DARK_PAGE_BACKGROUND = '#000000';

type Token = NonNullable<ThemeConfig['token']>;
const PORTAL_TOKEN: Token = antdTheme.token ?? {};

export function themeFor(p: Preferences): ThemeConfig {
  const algorithm = [p.dark ? theme.darkAlgorithm : theme.defaultAlgorithm];
  if (p.compact) algorithm.push(theme.compactAlgorithm);
  const primary = { colorPrimary: p.primaryColor, colorInfo: p.primaryColor };
  if (!p.dark) return { algorithm, token: { ...PORTAL_TOKEN, ...primary, colorLink: p.primaryColor } };
  // On a dark page each of the portal's fixed colours takes antd's dark value for it, and the chosen
  // colour, too dark as text there, gives links the light shade antd gives text in that colour (4.5:1 or
  // more on the dark backgrounds for every colour offered).
  const dark = theme.getDesignToken({ algorithm: theme.darkAlgorithm, token: primary }) as unknown as Record<
    string,
    unknown
  >;
  const token = Object.fromEntries(Object.keys(PORTAL_TOKEN).map((k) => [k, dark[k]])) as Token;
  return {
    algorithm,
    token: {
      ...token,
      ...primary,
      colorLink: dark.colorPrimaryTextActive as string,
      // The portal's fixes for secondary texts and placeholders, in white on black.
      colorTextTertiary: 'rgba(255, 255, 255, 0.65)',
      colorTextDescription: 'rgba(255, 255, 255, 0.65)',
      colorTextPlaceholder: 'rgba(255, 255, 255, 0.5)',
      opacityLoading: PORTAL_TOKEN.opacityLoading,
    },
  };
}
