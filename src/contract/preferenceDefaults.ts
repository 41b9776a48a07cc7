/**
 * The values of a user's preferences the browser needs at start, without zod (they are read before
 * the first paint, on every page of the shell): the colours offered and the defaults.
 */
/**
 * The colours offered, by Chinese name: each leaves white text on it and it as text on white at 4.5:1
 * or more (antd's 7th or 8th shades), as the default blue does.
 */
export const PRIMARY_COLORS = {
  '#0958d9': '拂晓蓝',
  '#1d39c4': '极客蓝',
  '#531dab': '酱紫',
  '#c41d7f': '法式洋红',
  '#006d75': '明青',
  '#237804': '极光绿',
  '#ad4e00': '日暮橙',
  '#a8071a': '薄暮红',
} as const;
export type PrimaryColor = keyof typeof PRIMARY_COLORS;

/** What a user who never chose anything sees (the portal's own theme). */
/** The shape of src/contract/preferences.ts's schema, written here so this file needs neither it nor zod. */
export const DEFAULT_PREFERENCES: Readonly<{
  dark: boolean;
  compact: boolean;
  primaryColor: PrimaryColor;
  siderCollapsed: boolean;
}> = {
  dark: false,
  compact: false,
  primaryColor: '#0958d9',
  siderCollapsed: false,
};
