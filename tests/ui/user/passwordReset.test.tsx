import ForgotPasswordPage from '@/pages/user/forgotPassword';
import ResetPasswordPage from '@/pages/user/resetPassword';
import VerifyEmailPage from '@/pages/user/verifyEmail';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { fetchAuthSettings } from '@/services/probes';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@/services/probes', () => ({ fetchAuthSettings: jest.fn() }));

const TOKEN = 'A'.repeat(43);
const settings = (passwordReset: boolean) => ({
  success: true as const,
  data: { registration: 'open' as const, passwordReset, sso: { cas: null, oidc: null } },
});
const invalid = {
  response: {
    status: 400,
    data: {
      success: false,
      errorMessage: '重置链接无效、已使用或已过期，请重新申请',
      data: { token: ['重置链接无效'] },
    },
  },
};

beforeEach(() => {
  jest.clearAllMocks();
  jest.mocked(fetchAuthSettings).mockResolvedValue(settings(true));
});

describe('forgotten password', () => {
  it('asks for a username or address and answers the same way whatever it was', async () => {
    answer(identityApi.forgotPassword, { success: true });
    renderAt('/user/forgotPassword', <ForgotPasswordPage />);
    const input = await screen.findByLabelText('用户名或邮箱');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /发送重置链接/ })));
    expect(await screen.findByText('请输入用户名或邮箱')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: ' alice ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /发送重置链接/ })));
    expect(call).toHaveBeenCalledWith(
      identityApi.forgotPassword,
      { body: { account: 'alice' } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText(/如果“alice”对应的账号绑定了已验证的邮箱，重置链接已发送/)).toBeInTheDocument();
  });

  it('shows the limit when asked too often', async () => {
    fail(identityApi.forgotPassword, {
      response: { status: 429, data: { success: false, errorMessage: '找回密码的请求过于频繁，请稍后再试' } },
    });
    renderAt('/user/forgotPassword', <ForgotPasswordPage />);
    fireEvent.change(await screen.findByLabelText('用户名或邮箱'), { target: { value: 'alice' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /发送重置链接/ })));
    expect(await screen.findByText('找回密码的请求过于频繁，请稍后再试')).toBeInTheDocument();
  });

  it('without e-mail on the server, says to ask an administrator', async () => {
    jest.mocked(fetchAuthSettings).mockResolvedValue(settings(false));
    renderAt('/user/forgotPassword', <ForgotPasswordPage />);
    expect(await screen.findByText('无法通过邮件找回密码。请联系管理员为你重置密码。')).toBeInTheDocument();
    expect(screen.queryByLabelText('用户名或邮箱')).not.toBeInTheDocument();
  });
});

describe('the reset link', () => {
  it('names the account, takes the new password twice, and reports the sessions ended', async () => {
    answer(identityApi.checkPasswordReset, { success: true, data: { username: 'alice' } });
    answer(identityApi.resetPassword, { success: true, data: { endedSessions: 3, revokedTokens: 2 } });
    renderAt(`/user/resetPassword#token=${TOKEN}`, <ResetPasswordPage />);
    expect(await screen.findByText('alice')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(
      identityApi.checkPasswordReset,
      { body: { token: TOKEN } },
      { skipErrorHandler: true },
    );
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'other' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /重置密码/ })));
    expect(await screen.findByText('密码至少 8 个字符')).toBeInTheDocument();
    expect(screen.getByText('两次输入的密码不一致')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'a-new-password' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'a-new-password' } });
    // Revoking the tokens is ticked already (a reset often follows a stolen password).
    expect(screen.getByRole('checkbox', { name: '同时吊销我的全部个人令牌' })).toBeChecked();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /重置密码/ })));
    expect(call).toHaveBeenCalledWith(
      identityApi.resetPassword,
      { body: { token: TOKEN, newPassword: 'a-new-password', revokeTokens: true } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('已退出该账号的 3 个会话，吊销 2 个个人令牌。请用新密码登录。')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /去登录/ }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/login$/);
  });

  it('unticked, the tokens are kept', async () => {
    answer(identityApi.checkPasswordReset, { success: true, data: { username: 'alice' } });
    answer(identityApi.resetPassword, { success: true, data: { endedSessions: 1, revokedTokens: 0 } });
    renderAt(`/user/resetPassword#token=${TOKEN}`, <ResetPasswordPage />);
    expect(await screen.findByText('alice')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'a-new-password' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'a-new-password' } });
    fireEvent.click(screen.getByRole('checkbox', { name: '同时吊销我的全部个人令牌' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /重置密码/ })));
    expect(call).toHaveBeenCalledWith(
      identityApi.resetPassword,
      { body: { token: TOKEN, newPassword: 'a-new-password', revokeTokens: false } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('已退出该账号的 1 个会话。请用新密码登录。')).toBeInTheDocument();
  });

  it('a used or expired link says so and leads to a new request', async () => {
    fail(identityApi.checkPasswordReset, invalid);
    renderAt(`/user/resetPassword#token=${TOKEN}`, <ResetPasswordPage />);
    expect(await screen.findByText(/重置链接无效、已使用或已过期/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '重新申请' })).toHaveAttribute('href', '/user/forgotPassword');
    expect(screen.queryByLabelText('新密码')).not.toBeInTheDocument();
  });

  it('a link without its token asks for the whole link and calls nothing', async () => {
    renderAt('/user/resetPassword', <ResetPasswordPage />);
    expect(await screen.findByText(/链接不完整/)).toBeInTheDocument();
    expect(sent(identityApi.checkPasswordReset)).toEqual([]);
  });
});

describe('the verification link', () => {
  it('verifies the address once', async () => {
    answer(identityApi.verifyEmail, { success: true, data: { email: 'alice@example.edu' } });
    renderAt(`/user/verifyEmail#token=${TOKEN}`, <VerifyEmailPage />);
    expect(
      await screen.findByText('alice@example.edu 已绑定到你的账号，忘记密码时可以通过它重置。'),
    ).toBeInTheDocument();
    await waitFor(() => expect(sent(identityApi.verifyEmail)).toHaveLength(1));
  });

  it('explains a link that no longer works', async () => {
    fail(identityApi.verifyEmail, {
      response: {
        status: 400,
        data: { success: false, errorMessage: '验证链接无效、已使用或已过期，请在个人中心重新发送验证邮件' },
      },
    });
    renderAt(`/user/verifyEmail#token=${TOKEN}`, <VerifyEmailPage />);
    expect(await screen.findByText('验证链接无效、已使用或已过期，请在个人中心重新发送验证邮件')).toBeInTheDocument();
  });

  it('without a token calls nothing', async () => {
    renderAt('/user/verifyEmail', <VerifyEmailPage />);
    expect(await screen.findByText(/链接不完整/)).toBeInTheDocument();
    expect(sent(identityApi.verifyEmail)).toEqual([]);
  });
});
