import { useModel } from '@@/plugin-model';
import LoginLinkPage from '@/pages/user/loginLink';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const TOKEN = 'A'.repeat(43);
const setInitialState = jest.fn();
const alice = { uid: 7, username: 'alice', nickname: null, avatar: null, roles: [] };

beforeEach(() => {
  localStorage.clear();
  setInitialState.mockReset();
  jest.mocked(useModel).mockReturnValue({ setInitialState, initialState: { currentUser: null } } as never);
});

describe('the sign-in link page', () => {
  it('signs this browser in once with the token from the fragment, and goes home', async () => {
    answer(identityApi.loginWithLink, { success: true, data: alice });
    renderAt(`/user/loginLink#token=${TOKEN}`, <LoginLinkPage />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
    expect(sent(identityApi.loginWithLink)).toHaveLength(1);
    expect(call).toHaveBeenCalledWith(
      identityApi.loginWithLink,
      { body: { token: TOKEN } },
      { skipErrorHandler: true },
    );
    expect(JSON.parse(localStorage.getItem('initialState')!)).toEqual(alice);
  });

  it('goes to the code step when the account uses two-factor sign-in', async () => {
    answer(identityApi.loginWithLink, { success: true, data: { challenge: 'totp' } });
    renderAt(`/user/loginLink#token=${TOKEN}`, <LoginLinkPage />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/login\?step=2fa$/));
    expect(setInitialState).not.toHaveBeenCalled();
  });

  it('says a used or expired link no longer works, with the way back to the login', async () => {
    fail(identityApi.loginWithLink, {
      response: {
        status: 400,
        data: { success: false, errorMessage: '登录链接无效、已使用或已过期，请重新登录', data: { token: ['x'] } },
      },
    });
    renderAt(`/user/loginLink#token=${TOKEN}`, <LoginLinkPage />);
    expect(await screen.findByText('登录链接无效、已使用或已过期，请重新登录')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/user/login');
  });

  it('a link without its token asks for the whole link and calls nothing', async () => {
    renderAt('/user/loginLink', <LoginLinkPage />);
    expect(await screen.findByText(/链接不完整/)).toBeInTheDocument();
    expect(sent(identityApi.loginWithLink)).toEqual([]);
  });
});
