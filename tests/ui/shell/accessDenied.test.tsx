import AccessDenied, { deniedTarget } from '@/components/AccessDenied';
import { useAccess } from '@@/plugin-access';
import { screen } from '@testing-library/react';
import { renderAt } from '../helpers';

// The access plugin's hook, which @umijs/max re-exports.
jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));
const useAccessMock = jest.mocked(useAccess);

describe('guarded routes', () => {
  it('decides redirect for visitors and 403 for logged-in users', () => {
    expect(deniedTarget(false, { pathname: '/OCS/bill', search: '' })).toEqual({
      redirectTo: '/user/login?redirect=%2FOCS%2Fbill',
    });
    expect(deniedTarget(true, { pathname: '/njit/overview' })).toEqual({ forbidden: true });
  });

  it('sends a logged-out visitor to login with the page (and query) as redirect', () => {
    useAccessMock.mockReturnValue({ isLoggedIn: false, isAdmin: false, isNjit: false });
    renderAt('/UMS/queryMessage?id=5', <AccessDenied />, '/UMS/queryMessage');
    expect(screen.getByTestId('location')).toHaveTextContent('/user/login?redirect=%2FUMS%2FqueryMessage%3Fid%3D5');
  });

  it('shows 403 with a way home to a logged-in user without the flag', () => {
    useAccessMock.mockReturnValue({ isLoggedIn: true, isAdmin: false, isNjit: false });
    renderAt('/njit/overview', <AccessDenied />, '/njit/overview');
    expect(screen.getByText('抱歉，你无权访问该页面。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /返回首页/ })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/njit\/overview$/);
  });
});
