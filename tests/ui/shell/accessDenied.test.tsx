import AccessDenied, { deniedTarget } from '@/components/AccessDenied';
import { useAccess } from '@@/plugin-access';
import * as userApi from '@/contract/api/user';
import { answer, sent } from '../api';
import { fetchCurrentUser } from '@/services/probes';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

// The access plugin's hook, which @umijs/max re-exports.
jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn(() => ({ setInitialState: mockSetInitialState })) }));
jest.mock('@/services/probes', () => ({ fetchCurrentUser: jest.fn() }));
const mockSetInitialState = jest.fn();
const useAccessMock = jest.mocked(useAccess);

describe('guarded routes', () => {
  it('decides redirect for visitors and 403 for logged-in users', () => {
    expect(deniedTarget(false, { pathname: '/OCS/bill', search: '' })).toEqual({
      redirectTo: '/user/login?redirect=%2FOCS%2Fbill',
    });
    expect(deniedTarget(true, { pathname: '/njit/overview' })).toEqual({ forbidden: true });
  });

  it('sends a logged-out visitor to login with the page (and query) as redirect', () => {
    useAccessMock.mockReturnValue({ isLoggedIn: false, isAdmin: false, isNjit: false, isNjitAdmin: false });
    renderAt('/UMS/queryMessage?id=5', <AccessDenied />, '/UMS/queryMessage');
    expect(screen.getByTestId('location')).toHaveTextContent('/user/login?redirect=%2FUMS%2FqueryMessage%3Fid%3D5');
  });

  it('shows 403 with a way home to a logged-in user without the flag', () => {
    useAccessMock.mockReturnValue({ isLoggedIn: true, isAdmin: false, isNjit: false, isNjitAdmin: false });
    renderAt('/njit/overview', <AccessDenied />, '/njit/overview');
    expect(screen.getByText('抱歉，你无权访问该页面。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/njit\/overview$/);
  });

  it('offers an administrator kept out of /njit for want of the role to take it, in one audited step', async () => {
    useAccessMock.mockReturnValue({ isLoggedIn: true, isAdmin: true, isNjit: false, isNjitAdmin: false });
    const me = { uid: 1, username: 'admin', nickname: null, avatar: null, roles: ['admin' as const, 'njit' as const] };
    answer(userApi.adminGrantSelfNjit, { success: true, data: { roles: ['admin', 'njit'], granted: true } });
    jest.mocked(fetchCurrentUser).mockResolvedValue({ success: true, data: me });
    renderAt('/njit/queryStuInfo', <AccessDenied />);
    expect(screen.getByText(/你是管理员，可以为自己开通/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '为自己开通' }));
    expect(await screen.findByText(/此操作会记入管理员审计日志/)).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^开\s?通$/ })));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/njit\/overview$/));
    expect(sent(userApi.adminGrantSelfNjit)).toHaveLength(1);
    expect(mockSetInitialState).toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem('initialState')!).roles).toEqual(['admin', 'njit']);
  });

  it('offers it on /njit only, and to an administrator only', () => {
    useAccessMock.mockReturnValue({ isLoggedIn: true, isAdmin: false, isNjit: false, isNjitAdmin: false });
    renderAt('/njit/overview', <AccessDenied />, '/njit/overview');
    expect(screen.queryByRole('button', { name: '为自己开通' })).not.toBeInTheDocument();
    useAccessMock.mockReturnValue({ isLoggedIn: true, isAdmin: true, isNjit: true, isNjitAdmin: true });
    renderAt('/user/admin/userManage', <AccessDenied />, '/user/admin/userManage');
    expect(screen.queryByRole('button', { name: '为自己开通' })).not.toBeInTheDocument();
  });
});
