import { hasSideMenu, HOME_ENTRY, narrowMenu, withMenuIcons } from '@/components/menu';
import { MENU_ICONS } from '@/components/menuIcons';
import type { MenuDataItem } from '@ant-design/pro-components';
import { isValidElement } from 'react';
import routes, { type PortalRoute } from '../../../config/routes';

/** Every route of config/routes.ts, nested ones included. */
function flatten(list: PortalRoute[]): PortalRoute[] {
  return list.flatMap((r) => [r, ...flatten(r.routes ?? [])]);
}

const menu: MenuDataItem[] = [
  { path: '/home', name: '首页' },
  { path: '/user', name: '用户中心', children: [{ path: '/user/me', name: '个人中心' }] },
  {
    path: '/OCS',
    name: 'OCS 网课助手',
    children: [
      { path: '/OCS/overview', name: '概览' },
      { path: '/OCS/bill', name: '账单' },
    ],
  },
  { path: '/UMS', name: 'UMS 消息推送', children: [{ path: '/UMS/overview', name: '概览' }] },
  { path: '/njit', name: 'NJIT 学生信息', children: [{ path: '/njit/queryStuInfo', name: '学生信息查询' }] },
];

const paths = (items: MenuDataItem[]) => items.map((i) => i.path);

describe('side menu narrowing', () => {
  it.each([
    ['/OCS/bill', ['/', '/OCS/overview', '/OCS/bill']],
    ['/OCS', ['/', '/OCS/overview', '/OCS/bill']],
    ['/user/me', ['/', '/user/me']],
    ['/UMS/overview', ['/', '/UMS/overview']],
    ['/njit/queryStuInfo', ['/', '/njit/queryStuInfo']],
  ])('under %s shows only that module, led by 返回首页', (pathname, expected) => {
    const narrowed = narrowMenu(pathname, menu);
    expect(paths(narrowed)).toEqual(expected);
    expect(narrowed[0]).toBe(HOME_ENTRY);
    expect(narrowed[0]).toMatchObject({ name: '返回首页', path: '/' });
  });

  it.each(['/home', '/403', '/nope', '/OCSX', '/users'])('on %s shows the full menu', (pathname) => {
    expect(narrowMenu(pathname, menu)).toBe(menu);
  });

  it('keeps only the home entry when the group is hidden from this user', () => {
    const withoutNjit = menu.filter((m) => m.path !== '/njit');
    expect(paths(narrowMenu('/njit/overview', withoutNjit))).toEqual(['/']);
  });

  it('hides the side menu on /home only', () => {
    expect(hasSideMenu('/home')).toBe(false);
    expect(hasSideMenu('/OCS/bill')).toBe(true);
  });
});

describe('menu icons (config/routes.ts)', () => {
  const entries = flatten(routes).filter((r) => r.name && !r.redirect && r.layout !== false && r.path !== '*');

  it('gives every menu entry an icon, nested ones too', () => {
    expect(entries.filter((r) => !r.menuIcon).map((r) => r.path)).toEqual([]);
  });

  it('names only icons the menu knows, and the menu data carries them as icons, not text', () => {
    expect(entries.filter((r) => !MENU_ICONS[r.menuIcon!]).map((r) => `${r.path}: ${r.menuIcon}`)).toEqual([]);
    const drawn = withMenuIcons(entries.map((r) => ({ path: r.path, name: r.name, menuIcon: r.menuIcon })));
    expect(drawn.filter((i) => !isValidElement(i.icon)).map((i) => i.path)).toEqual([]);
  });

  it('hides 编辑用户 from the menu: it needs a user picked in the list', () => {
    expect(entries.find((r) => r.path === '/user/admin/editUser')).toMatchObject({ hideInMenu: true });
  });

  it('gives the 返回首页 entry, which is no route, an icon of its own', () => {
    expect(isValidElement(HOME_ENTRY.icon)).toBe(true);
  });
});
