import AvatarDropdown from '@/components/AvatarDropdown';
import * as userApi from '@/contract/api/user';
import { answer, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const admin = { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin' as const] };

async function openMenu() {
  fireEvent.mouseEnter(screen.getByText('头像').closest('.ant-dropdown-trigger')!);
  return screen.findAllByRole('menuitem');
}

const render = (path: string, user: typeof admin | null) =>
  renderAt(
    path,
    <AvatarDropdown currentUser={user}>
      <span>头像</span>
    </AvatarDropdown>,
  );

describe('avatar menu', () => {
  const originalLocation = window.location;
  let reload: jest.Mock;

  beforeEach(() => {
    reload = jest.fn();
    Object.defineProperty(window, 'location', { configurable: true, value: { ...originalLocation, reload } });
  });
  afterEach(() => {
    Object.defineProperty(window, 'location', { configurable: true, value: originalLocation });
  });

  it('logged out: 登录 goes to the login page with the current path as redirect', async () => {
    render('/OCS/bill?page=2', null);
    const [item] = await openMenu();
    expect(item).toHaveTextContent('登录');
    expect(screen.queryByText('退出登录')).not.toBeInTheDocument();
    fireEvent.click(item!);
    expect(screen.getByTestId('location')).toHaveTextContent('/user/login?redirect=%2FOCS%2Fbill%3Fpage%3D2');
  });

  it('logged in: 个人中心, 账号安全, 我的令牌 lead to their pages, then the appearance entries and 退出登录', async () => {
    render('/home', admin);
    const items = await openMenu();
    expect(items.map((i) => i.textContent)).toEqual([
      '个人中心',
      '账号安全',
      '我的令牌',
      '切换到深色模式',
      '偏好设置',
      '退出登录',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: '账号安全' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/security$/);
    fireEvent.click((await openMenu()).find((i) => i.textContent === '我的令牌')!);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/tokenManage$/);
    fireEvent.click((await openMenu()).find((i) => i.textContent === '个人中心')!);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/me$/);
  });

  it('logged in: 退出登录 calls the logout API and reloads on success', async () => {
    answer(userApi.logout, { success: true });
    render('/home', admin);
    await openMenu();
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: '退出登录' })));
    expect(sent(userApi.logout)).toHaveLength(1);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('logged in: a failed logout does not reload', async () => {
    fail(userApi.logout, new Error('Network Error'));
    render('/home', admin);
    await openMenu();
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: '退出登录' })));
    expect(sent(userApi.logout)).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('is a named button a keyboard opens with Enter or Space and closes with Esc, the focus back on it', async () => {
    render('/home', admin);
    const trigger = screen.getByRole('button', { name: '管理员的账号菜单' });
    expect(trigger).toHaveAttribute('tabindex', '0');
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    for (const key of ['Enter', ' ']) {
      trigger.focus();
      fireEvent.keyDown(trigger, { key });
      await waitFor(() => expect(trigger).toHaveAttribute('aria-expanded', 'true'));
      expect(await screen.findByRole('menuitem', { name: '个人中心' })).toBeVisible();
      // The focus goes into the menu, where the arrow keys move and Enter picks.
      await waitFor(() => expect(document.activeElement?.closest('[role="menu"]')).not.toBeNull());
      fireEvent.keyDown(window, { key: 'Escape', keyCode: 27 });
      await waitFor(() => expect(trigger).toHaveAttribute('aria-expanded', 'false'));
      expect(trigger).toHaveFocus();
    }
  });

  it("names a visitor's menu too", () => {
    render('/home', null);
    expect(screen.getByRole('button', { name: '未登录，打开账号菜单' })).toBeInTheDocument();
  });
});
