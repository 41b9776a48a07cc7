/**
 * Side-menu narrowing: under a module prefix the menu shows only that
 * module's entries, led by a return-to-home entry; elsewhere the full menu.
 */
import { HomeOutlined } from '@ant-design/icons';
import type { MenuDataItem } from '@ant-design/pro-components';
import { createElement, lazy, Suspense } from 'react';

export const MODULE_PREFIXES = ['/OCS', '/user', '/UMS', '/njit'] as const;

/** Not a route, so not given an icon by Umi: it carries its own (the collapsed menu shows only icons). */
export const HOME_ENTRY: MenuDataItem = {
  key: 'return-home',
  path: '/',
  name: '返回首页',
  icon: createElement(HomeOutlined, { 'aria-hidden': true }),
};

const MenuIconGlyph = lazy(() => import('./menuIcons'));

/** A menu icon by name, loaded with the menu; an icon-sized blank until then, so nothing shifts. */
function MenuIcon({ name }: { name: string }) {
  return createElement(
    Suspense,
    { fallback: createElement('span', { className: 'anticon', style: { width: '1em', height: '1em' } }) },
    createElement(MenuIconGlyph, { name }),
  );
}

/**
 * Gives every entry its icon from config/routes.ts `menuIcon`. Not Umi's route `icon`: the layout
 * plugin would import every icon it names into umi.js, the first download of every page, login included.
 */
export function withMenuIcons(items: MenuDataItem[]): MenuDataItem[] {
  return items.map((item) => {
    const name = (item as { menuIcon?: string }).menuIcon;
    const children = item.children ? withMenuIcons(item.children) : item.children;
    return { ...item, ...(name ? { icon: createElement(MenuIcon, { name }) } : {}), ...(children ? { children } : {}) };
  });
}

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
