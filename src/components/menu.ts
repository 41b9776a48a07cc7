/**
 * Side-menu narrowing (issue 2): under a module prefix the menu shows only that
 * module's entries, led by a return-to-home entry; elsewhere the full menu.
 */
import type { MenuDataItem } from '@ant-design/pro-components';

export const MODULE_PREFIXES = ['/OCS', '/user', '/UMS', '/njit'] as const;

export const HOME_ENTRY: MenuDataItem = { key: 'return-home', path: '/', name: '返回首页' };

/** The module prefix a path belongs to, if any. */
export function modulePrefixOf(pathname: string): string | undefined {
  return MODULE_PREFIXES.find((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export function narrowMenu(pathname: string, menuData: MenuDataItem[]): MenuDataItem[] {
  const prefix = modulePrefixOf(pathname);
  if (!prefix) return menuData;
  const group = menuData.find((item) => item.path === prefix);
  return [HOME_ENTRY, ...(group?.children ?? [])];
}

/** /home is a landing page: no side menu there. */
export function hasSideMenu(pathname: string): boolean {
  return pathname !== '/home';
}
