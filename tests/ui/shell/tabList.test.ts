/** The open tabs as data: opening, closing, the cap and what is kept per user (components/tabs/tabList.ts). */
import {
  closing,
  HOME_PATH,
  keptInBackground,
  MAX_TABS,
  mayOpen,
  nextActive,
  overCap,
  show,
  storedTabs,
  storeTabs,
  titleOf,
  type Tab,
} from '@/components/tabs/tabList';

const user = { isLoggedIn: true, isAdmin: false, isNjit: false, isNjitAdmin: false };
const paths = (tabs: Tab[]) => tabs.map((t) => t.path);

afterEach(() => localStorage.clear());

it('opens a tab per page after the pinned home tab, and touches a known one in place', () => {
  let tabs = show([], '/OCS/bill', '?page=2', 1);
  tabs = show(tabs, '/UMS/self', '', 2);
  tabs = show(tabs, '/OCS/bill', '', 3);
  expect(paths(tabs)).toEqual([HOME_PATH, '/OCS/bill', '/UMS/self']);
  expect(tabs[1]).toEqual({ path: '/OCS/bill', search: '', used: 3 });
  expect(titleOf('/OCS/bill')).toBe('账单');
  // Names two modules share are told apart.
  expect(titleOf('/OCS/overview')).toBe('OCS 概览');
  expect(titleOf('/UMS/overview')).toBe('UMS 概览');
  expect(titleOf('/user/admin/userManage')).toBe('用户列表');
});

it('keeps every page in the background but those that show a secret once', () => {
  expect(keptInBackground('/OCS/askQuestion')).toBe(true);
  expect(keptInBackground('/user/tokenGen')).toBe(false);
  expect(keptInBackground('/OCS/tokenGen')).toBe(false);
});

it('closes this, the others or those to the right, never home, and shows a neighbour', () => {
  const tabs = ['/home', '/a', '/b', '/c'].map((path, used) => ({ path, search: '', used }));
  expect(paths(closing(tabs, 'this', '/home'))).toEqual([]);
  expect(paths(closing(tabs, 'others', '/b'))).toEqual(['/a', '/c']);
  expect(paths(closing(tabs, 'right', '/a'))).toEqual(['/b', '/c']);
  expect(nextActive(tabs, closing(tabs, 'this', '/b'), '/b')).toBe('/c');
  expect(nextActive(tabs, closing(tabs, 'this', '/c'), '/c')).toBe('/b');
  expect(nextActive(tabs, closing(tabs, 'right', '/a'), '/c')).toBe('/a');
  expect(nextActive(tabs, closing(tabs, 'this', '/a'), '/c')).toBe('/c');
});

describe('the cap', () => {
  const full = (n: number) =>
    [HOME_PATH, ...Array.from({ length: n - 1 }, (_, i) => `/p${i}`)].map((path, i) => ({ path, search: '', used: i }));

  it('closes nothing up to the cap', () => {
    expect(overCap(full(MAX_TABS), '/p0', () => false)).toBeNull();
  });

  it('past it closes the least recently used tab, not home, not the one shown', () => {
    expect(overCap(full(MAX_TABS + 1), '/p0', () => false)).toEqual({
      tab: { path: '/p1', search: '', used: 2 },
      ask: false,
    });
  });

  it('passes over a tab with unsaved input, and asks when every one has some', () => {
    expect(overCap(full(MAX_TABS + 1), '/p5', (p) => p === '/p0')?.tab.path).toBe('/p1');
    expect(overCap(full(MAX_TABS + 1), '/p5', () => true)).toEqual({
      tab: { path: '/p0', search: '', used: 1 },
      ask: true,
    });
  });
});

describe('kept per user', () => {
  it('restores a user’s tabs, only pages of the route table they may open, never another user’s', () => {
    storeTabs(5, [
      { path: '/home', search: '', used: 0 },
      { path: '/user/admin/editUser', search: '?uid=3', used: 1 },
      { path: '/OCS/bill', search: '?page=2', used: 2 },
      { path: '/no/such/page', search: '', used: 3 },
    ]);
    expect(storedTabs(5, user).map((t) => t.path + t.search)).toEqual(['/home', '/OCS/bill?page=2']);
    expect(storedTabs(5, { ...user, isAdmin: true }).map((t) => t.path + t.search)).toEqual([
      '/home',
      '/user/admin/editUser?uid=3',
      '/OCS/bill?page=2',
    ]);
    expect(storedTabs(6, user)).toEqual([]);
  });

  it('ignores a damaged list', () => {
    localStorage.setItem('pageTabs:5', '{"path":1');
    expect(storedTabs(5, user)).toEqual([]);
    localStorage.setItem('pageTabs:5', JSON.stringify([{ path: '/OCS/bill', search: 'javascript:x' }, 7, null]));
    expect(storedTabs(5, user)).toEqual([]);
  });

  it('knows which pages a role opens', () => {
    expect(mayOpen('/njit/overview', user)).toBe(false);
    expect(mayOpen('/njit/overview', { ...user, isNjit: true, isNjitAdmin: false })).toBe(true);
    expect(mayOpen('/user/login', user)).toBe(false);
  });
});
