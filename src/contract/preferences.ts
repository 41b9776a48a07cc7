/**
 * A user's preferences for the shell: dark and compact mode (antd's algorithms), the primary colour and
 * whether the side menu is collapsed. Kept per user on the server; every field is required and no other
 * key is accepted, so what is stored is always a whole, known set.
 */
import { z } from 'zod';
import { ok } from './common';
import { PRIMARY_COLORS, type PrimaryColor } from './preferenceDefaults';

export * from './preferenceDefaults';

export const Preferences = z.strictObject({
  dark: z.boolean({ error: '深色模式须为是或否' }),
  compact: z.boolean({ error: '紧凑模式须为是或否' }),
  primaryColor: z.enum(Object.keys(PRIMARY_COLORS) as [PrimaryColor, ...PrimaryColor[]], {
    error: '请选择列出的主题色之一',
  }),
  siderCollapsed: z.boolean({ error: '侧边菜单的收起状态须为是或否' }),
});
export type Preferences = z.infer<typeof Preferences>;

export const PreferencesResponse = ok(Preferences);
