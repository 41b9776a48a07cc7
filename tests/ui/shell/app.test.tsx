/**
 * The whole shell in jsdom (Umi's TestBrowser): real routes, access plugin, layout and
 * guards; only the HTTP services are replaced.
 */
import { TestBrowser } from '@@/testBrowser';
import * as identityApi from '@/contract/api/identity';
import * as njitApi from '@/contract/api/njit';
import * as userApi from '@/contract/api/user';
import { followUser, setPreferences } from '@/components/preferences/store';
import { FetchError } from '@/services/http';
import { fetchAuthSettings, fetchHealth, probeCurrentUser } from '@/services/probes';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { answer, sent } from '../api';
import { atViewport } from '../helpers';

jest.mock('@/services/call');

jest.mock('@/services/probes', () => ({
  fetchCurrentUser: jest.fn(),
  probeCurrentUser: jest.fn(),
  fetchAuthSettings: jest.fn(),
  fetchHealth: jest.fn(),
}));

const asUser = (roles: ('admin' | 'njit')[]) =>
  jest.mocked(probeCurrentUser).mockResolvedValue({
    success: true,
    data: { uid: 5, username: 'carol', nickname: null, avatar: null, roles },
  });
const asVisitor = () =>
  jest.mocked(probeCurrentUser).mockRejectedValue(new FetchError(401, 'Unauthorized', { success: false }));

beforeEach(() => {
  // A save of the user's preferences (the side menu's state) is answered as the server would.
  answer(userApi.putPreferences, async ({ body }) => ({ success: true as const, data: body }));
  answer(userApi.adminListUsers, { success: true, data: [], total: 0, current: 1, pageSize: 10 });
  answer(userApi.adminAudit, { success: true, data: [], total: 0, current: 1, pageSize: 10 });
  // The two-factor set-up page a user of a role that requires it is held on.
  answer(identityApi.twoFactorStatus, {
    success: true,
    data: { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: true, trustedBrowsers: 0 },
  });
  answer(njitApi.overview, {
    success: true,
    data: {
      total: 12,
      byCollege: [],
      byGrade: [],
      byStatus: [],
      lastImport: null,
      queriesToday: 0,
      queriesThisMinute: 0,
      queryLimitPerMinute: 30,
    },
  });
  jest.mocked(fetchAuthSettings).mockResolvedValue({
    success: true,
    data: { registration: 'open', passwordReset: false, sso: { cas: null, oidc: null } },
  });
  jest.mocked(fetchHealth).mockResolvedValue({
    success: true,
    data: { status: 'ok', database: 'ok', version: 't', uptimeSeconds: 1 },
  });
});

function open(pathname: string, search = '') {
  const historyRef: { current: any } = { current: undefined };
  render(<TestBrowser location={{ pathname, search }} historyRef={historyRef} />);
  return historyRef;
}

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
  // The preferences live as long as the page: each test is a new page.
  act(() => followUser(null));
  localStorage.clear();
});

describe('the shell', () => {
  it('sends a visitor from a guarded page to login with redirect', async () => {
    asVisitor();
    const history = open('/OCS/bill', '?page=2');
    await waitFor(() => expect(history.current?.location.pathname).toBe('/user/login'), { timeout: 15000 });
    expect(history.current.location.search).toBe('?redirect=%2FOCS%2Fbill%3Fpage%3D2');
    expect(await screen.findByRole('button', { name: /登\s*录/ }, { timeout: 15000 })).toBeInTheDocument();
  });

  it('shows 403 to a logged-in user without the njit role', async () => {
    asUser([]);
    const history = open('/njit/overview');
    expect(await screen.findByText('抱歉，你无权访问该页面。', {}, { timeout: 15000 })).toBeInTheDocument();
    expect(history.current.location.pathname).toBe('/njit/overview');
  });

  it('shows the module page, the narrowed menu and the user name to an njit user', async () => {
    asUser(['njit']);
    open('/njit/overview');
    expect(await screen.findByText('学生总数', {}, { timeout: 15000 })).toBeInTheDocument();
    expect(screen.getAllByText('学生信息查询').length).toBeGreaterThan(0);
    expect(screen.queryByText('OCS 网课助手')).not.toBeInTheDocument();
    expect(await screen.findByText('carol')).toBeInTheDocument();
  });

  it('holds a user who must set up two-factor sign-in on its set-up, with the way back', async () => {
    jest.mocked(probeCurrentUser).mockResolvedValue({
      success: true,
      data: { uid: 5, username: 'carol', nickname: null, avatar: null, roles: ['njit'], mustEnrollTwoFactor: true },
    });
    const history = open('/njit/overview');
    await waitFor(() => expect(history.current?.location.pathname).toBe('/user/security'), { timeout: 15000 });
    expect(history.current.location.search).toBe('?redirect=%2Fnjit%2Foverview');
    expect(await screen.findByText('你的账号需要先开启两步验证', {}, { timeout: 15000 })).toBeInTheDocument();
    expect(screen.queryByText('学生总数')).not.toBeInTheDocument();
  });

  it('shows 404 with a way home on an unknown route', async () => {
    asVisitor();
    open('/no/such/page');
    expect(await screen.findByText('抱歉，你访问的页面不存在。', {}, { timeout: 15000 })).toBeInTheDocument();
  });

  it('sends a visitor from a /user page to login with redirect too, not to a 请先登录 page', async () => {
    asVisitor();
    const history = open('/user/tokenGen', '?scope=ocs:query');
    await waitFor(() => expect(history.current?.location.pathname).toBe('/user/login'), { timeout: 15000 });
    expect(history.current.location.search).toBe('?redirect=%2Fuser%2FtokenGen%3Fscope%3Docs%3Aquery');
    expect(await screen.findByRole('button', { name: /登\s*录/ }, { timeout: 15000 })).toBeInTheDocument();
    expect(screen.queryByText('请先登录')).not.toBeInTheDocument();
  });

  it('redirects / to /home, which has no side menu, and names a visitor 未登录', async () => {
    asVisitor();
    const history = open('/');
    // All four modules need a login: 用户中心 too.
    expect(await screen.findAllByText('需要登录', {}, { timeout: 15000 })).toHaveLength(4);
    expect(history.current.location.pathname).toBe('/home');
    expect(document.querySelector('.ant-pro-sider')).toBeNull();
    expect(screen.getByText('未登录')).toBeInTheDocument();
  });

  it('narrows the menu under /OCS and hides OCS 管理 from a non-admin', async () => {
    asUser([]);
    open('/OCS/bill');
    expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
    const sider = document.querySelector('.ant-pro-sider') as HTMLElement;
    expect(sider).not.toBeNull();
    expect(sider).toHaveTextContent('返回首页');
    expect(sider).toHaveTextContent('每日领取与兑换');
    expect(sider).not.toHaveTextContent('OCS 管理');
    expect(sider).not.toHaveTextContent('UMS 消息推送');
  });

  it('gives every entry of the collapsed side menu an icon', async () => {
    asUser(['admin']);
    restore = atViewport(1440);
    open('/OCS/bill');
    expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
    const sider = document.querySelector('.ant-pro-sider') as HTMLElement;
    fireEvent.click(sider.querySelector('.ant-pro-sider-collapsed-button') as HTMLElement);
    await waitFor(() => expect(sider).toHaveClass('ant-layout-sider-collapsed'));
    const entries = Array.from(
      sider.querySelectorAll(':scope .ant-menu-root > .ant-menu-item, :scope .ant-menu-root > .ant-menu-submenu'),
    );
    expect(entries.length).toBeGreaterThanOrEqual(10); // 返回首页, the OCS pages, 偏好设置 and OCS 管理
    // Without an icon ProLayout shows the entry's first character instead (账 for 账单). The icons load
    // with the menu (src/components/menuIcons.tsx), so give them that moment.
    await waitFor(() =>
      expect(entries.filter((e) => !e.querySelector('.anticon svg')).map((e) => e.textContent)).toEqual([]),
    );
  });

  it('keeps 编辑用户 out of the menu: it is opened from the user list', async () => {
    asUser(['admin']);
    restore = atViewport(1440);
    open('/user/admin/userManage');
    expect((await screen.findAllByText('用户列表', {}, { timeout: 15000 }))[0]).toBeInTheDocument();
    const sider = document.querySelector('.ant-pro-sider') as HTMLElement;
    await waitFor(() => expect(sider).toHaveTextContent('创建用户'));
    expect(sider).not.toHaveTextContent('编辑用户');
  });

  it('shows the short title next to the logo in the mobile header', async () => {
    const restore = atViewport(375);
    try {
      asUser([]);
      open('/OCS/bill');
      expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
      const header = document.querySelector('.ant-pro-global-header') as HTMLElement;
      expect(header.querySelector('.ant-pro-global-header-collapsed-button')).not.toBeNull(); // the phone header
      const title = await within(header).findByRole('heading', { name: '门户' });
      expect(title.closest('a')).toHaveAttribute('href', '/home');
      expect(within(header).getByAltText('logo')).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  it('shows the full menu with OCS 管理 to an admin under /OCS', async () => {
    asUser(['admin']);
    open('/OCS/overview');
    expect((await screen.findAllByText('OCS 概览', {}, { timeout: 15000 }))[0]).toBeInTheDocument();
    expect(document.querySelector('.ant-pro-sider')).toHaveTextContent('OCS 管理');
  });

  it('remembers the side menu collapsed across reloads, and its toggle is a named button Enter presses', async () => {
    asUser([]);
    restore = atViewport(1440);
    // The browser's copy of carol's preferences (the server's answer is still on its way).
    localStorage.setItem(
      'portal.preferences.5',
      JSON.stringify({ dark: false, compact: false, primaryColor: '#0958d9', siderCollapsed: true }),
    );
    open('/OCS/bill');
    expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
    const sider = document.querySelector('.ant-pro-sider') as HTMLElement;
    expect(sider).toHaveClass('ant-layout-sider-collapsed');
    const toggle = within(sider).getByRole('button', { name: '展开侧边菜单' });
    expect(toggle).toHaveAttribute('tabindex', '0');
    fireEvent.keyDown(toggle, { key: 'Enter' });
    await waitFor(() => expect(sider).not.toHaveClass('ant-layout-sider-collapsed'));
    // One of carol's preferences: saved on the server and in the browser's copy.
    expect(sent(userApi.putPreferences).map((input) => input.body.siderCollapsed)).toEqual([false]);
    expect(JSON.parse(localStorage.getItem('portal.preferences.5')!).siderCollapsed).toBe(false);
    expect(within(sider).getByRole('button', { name: '收起侧边菜单' })).toBeInTheDocument();
  });

  it('follows the collapsed preference at once: loaded from the server after the first paint, switched in 偏好设置', async () => {
    asUser([]);
    restore = atViewport(1440);
    let reply: (v: unknown) => void = () => undefined;
    answer(userApi.getPreferences, () => new Promise((r) => (reply = r as never)));
    open('/OCS/bill');
    expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
    const sider = document.querySelector('.ant-pro-sider') as HTMLElement;
    expect(sider).not.toHaveClass('ant-layout-sider-collapsed');

    // The server's copy (left collapsed in another browser) arrives after the first paint: no reload.
    act(() =>
      reply({ success: true, data: { dark: false, compact: false, primaryColor: '#0958d9', siderCollapsed: true } }),
    );
    await waitFor(() => expect(sider).toHaveClass('ant-layout-sider-collapsed'));
    expect(within(sider).getByRole('button', { name: '展开侧边菜单' })).toBeInTheDocument();
    expect(sent(userApi.putPreferences)).toEqual([]);

    // A change of the preference (偏好设置's switch calls this; tests/ui/shell/preferences.test.tsx): the
    // menu opens at once, and the choice is saved.
    act(() => void setPreferences({ siderCollapsed: false }));
    await waitFor(() => expect(sider).not.toHaveClass('ant-layout-sider-collapsed'));
    expect(sent(userApi.putPreferences).map((input) => input.body.siderCollapsed)).toEqual([false]);
  });

  it('puts 跳到主要内容 first, and it moves the focus to the page content', async () => {
    asUser([]);
    open('/OCS/bill');
    expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
    const skip = screen.getByRole('link', { name: '跳到主要内容' });
    const focusable = document.querySelectorAll('a[href], button, [tabindex="0"]');
    expect(focusable[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(document.getElementById('main-content'));
    expect(document.activeElement).toContainElement(screen.getByText('积分明细'));
  });

  it('on a phone: the header menu toggle is a named button where there is a side menu, and absent on /home', async () => {
    restore = atViewport(375);
    asUser([]);
    const history = open('/OCS/bill');
    expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
    const toggle = await screen.findByRole('button', { name: '打开菜单' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.keyDown(toggle, { key: ' ' });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-label', '关闭菜单'));
    expect(document.querySelector('.ant-drawer-open')).not.toBeNull();
    // A phone's drawer is not the desktop's collapsed state: nothing is remembered.
    expect(sent(userApi.putPreferences)).toEqual([]);
    expect(localStorage.getItem('portal.preferences.5')).toBeNull();
    act(() => history.current.push('/home'));
    await screen.findAllByText('需要相应角色才能进入，请联系管理员。', {}, { timeout: 15000 });
    const header = document.querySelector('.ant-pro-global-header') as HTMLElement;
    expect((header.querySelector('.ant-pro-global-header-collapsed-button') as HTMLElement).style.display).toBe('none');
  });

  it('draws the side menu without React warnings (findDOMNode: a tooltip around an entry without a ref)', async () => {
    const errors = jest.spyOn(console, 'error');
    try {
      asUser(['admin']);
      restore = atViewport(1440);
      open('/OCS/bill');
      expect(await screen.findByText('积分明细', {}, { timeout: 15000 })).toBeInTheDocument();
      await waitFor(() => expect(document.querySelectorAll('.ant-pro-sider a[href]').length).toBeGreaterThan(5));
      const link = document.querySelector('.ant-pro-sider a[href="/OCS/freeChange"]') as HTMLElement;
      fireEvent.click(link);
      await waitFor(() => expect(document.querySelector('.ant-pro-sider a[href="/OCS/freeChange"]')).toBeNull());
      expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => /findDOMNode/.test(m))).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});
