/**
 * A user's preferences for the shell: dark and compact mode (antd's algorithms), the primary colour and
 * whether the side menu is collapsed. Kept per user on the server; every field is required and no other
 * key is accepted, so what is stored is always a whole, known set.
 */
import { z } from 'zod';
import { ok } from './common';

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

export const Preferences = z.strictObject({
  dark: z.boolean({ error: '深色模式须为是或否' }),
  compact: z.boolean({ error: '紧凑模式须为是或否' }),
  primaryColor: z.enum(Object.keys(PRIMARY_COLORS) as [PrimaryColor, ...PrimaryColor[]], {
    error: '请选择列出的主题色之一',
  }),
  siderCollapsed: z.boolean({ error: '侧边菜单的收起状态须为是或否' }),
});
export type Preferences = z.infer<typeof Preferences>;

/** What a user who never chose anything sees (the portal's own theme). */
export const DEFAULT_PREFERENCES: Preferences = {
  dark: false,
  compact: false,
  primaryColor: '#0958d9',
  siderCollapsed: false,
};

export const PreferencesResponse = ok(Preferences);
