import AvatarDropdown from '@/components/AvatarDropdown';
import { logout } from '@/services/user';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/user', () => ({ logout: jest.fn() }));
const logoutMock = jest.mocked(logout);

const admin = { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin' as const] };

async function openMenu() {
  fireEvent.mouseEnter(screen.getByText('头像').closest('.ant-dropdown-trigger')!);
  return screen.findByRole('menuitem');
}

describe('avatar menu', () => {
  const originalLocation = window.location;
  let reload: jest.Mock;

  beforeEach(() => {
    logoutMock.mockReset();
    reload = jest.fn();
    Object.defineProperty(window, 'location', { configurable: true, value: { ...originalLocation, reload } });
  });
  afterEach(() => {
    Object.defineProperty(window, 'location', { configurable: true, value: originalLocation });
  });

  it('logged out: 登录 goes to the login page with the current path as redirect', async () => {
    renderAt(
      '/OCS/bill?page=2',
      <AvatarDropdown currentUser={null}>
        <span>头像</span>
      </AvatarDropdown>,
    );
    const item = await openMenu();
    expect(item).toHaveTextContent('登录');
    expect(screen.queryByText('退出登录')).not.toBeInTheDocument();
    fireEvent.click(item);
    expect(screen.getByTestId('location')).toHaveTextContent('/user/login?redirect=%2FOCS%2Fbill%3Fpage%3D2');
  });

  it('logged in: 退出登录 calls the logout API and reloads on success', async () => {
    logoutMock.mockResolvedValue({ success: true });
    renderAt(
      '/home',
      <AvatarDropdown currentUser={admin}>
        <span>头像</span>
      </AvatarDropdown>,
    );
    const item = await openMenu();
    expect(item).toHaveTextContent('退出登录');
    await act(async () => fireEvent.click(item));
    expect(logoutMock).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });

  it('logged in: a failed logout does not reload', async () => {
    logoutMock.mockRejectedValue(new Error('Network Error'));
    renderAt(
      '/home',
      <AvatarDropdown currentUser={admin}>
        <span>头像</span>
      </AvatarDropdown>,
    );
    const item = await openMenu();
    await act(async () => fireEvent.click(item));
    expect(logoutMock).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });
});
