import { useModel } from '@@/plugin-model';
import SecurityPage from '@/pages/user/security';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { answer, answerOnce, callsOf, failOnce, sent } from '../api';
import { fetchAuthSettings, fetchCurrentUser } from '@/services/probes';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@/services/probes', () => ({ fetchAuthSettings: jest.fn(), fetchCurrentUser: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const user = { uid: 2, username: 'alice', nickname: null, avatar: null, roles: ['admin' as const] };
const off = { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false, trustedBrowsers: 0 };
const on = { ...off, enabled: true, enabledAt: '2025-01-01T00:00:00.000Z', recoveryCodesLeft: 2, trustedBrowsers: 1 };
const email = { email: null, verifiedAt: null, pendingEmail: null, pendingSentAt: null, mailConfigured: true };
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-${String(i).padStart(4, '0')}`);
const identity = {
  id: 7,
  provider: 'cas' as const,
  subject: '2021001',
  displayName: '张三',
  email: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastLoginAt: null,
};

let state: { currentUser: (typeof user & { mustEnrollTwoFactor?: boolean }) | null };
const setInitialState = jest.fn(async (update: (s: typeof state) => typeof state) => {
  state = update(state);
});

beforeEach(() => {
  jest.clearAllMocks();
  state = { currentUser: user };
  jest.mocked(useModel).mockImplementation(() => ({ initialState: state, setInitialState }) as never);
  answer(identityApi.twoFactorStatus, { success: true, data: off });
  answer(identityApi.emailStatus, { success: true, data: email });
  answer(identityApi.listIdentities, { success: true, data: { identities: [], passwordLogin: true } });
  jest.mocked(fetchAuthSettings).mockResolvedValue({
    success: true,
    data: {
      registration: 'open',
      passwordReset: true,
      sso: { cas: { label: '统一身份认证登录', loginUrl: '/api/user/sso/cas/login' }, oidc: null },
    },
  });
});

const button = (name: RegExp) => screen.getByRole('button', { name });

describe('two-factor sign-in', () => {
  it('is set up with the QR code and a first code, then shows the ten recovery codes once; tokens are said to be unaffected', async () => {
    answer(identityApi.twoFactorSetup, {
      success: true,
      data: {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/x',
        qrDataUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
      },
    });
    failOnce(identityApi.twoFactorEnable, {
      response: {
        status: 400,
        data: { success: false, errorMessage: '验证码不正确', data: { code: ['验证码不正确'] } },
      },
    });
    answerOnce(identityApi.twoFactorEnable, { success: true, data: { recoveryCodes: CODES } });
    renderAt('/user/security', <SecurityPage />);
    expect(await screen.findByText('个人 API 令牌不受两步验证影响')).toBeInTheDocument();
    {
      const target = await screen.findByRole('button', { name: '开启两步验证' });
      await act(async () => fireEvent.click(target));
    }
    const qr = await screen.findByAltText('两步验证二维码');
    expect(qr).toHaveAttribute('src', 'data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();

    const code = screen.getByLabelText('验证码');
    fireEvent.change(code, { target: { value: '000000' } });
    await act(async () => fireEvent.click(button(/确认开启/)));
    expect(await screen.findByText('验证码不正确')).toBeInTheDocument();
    fireEvent.change(code, { target: { value: '123456' } });
    answer(identityApi.twoFactorStatus, { success: true, data: { ...on, recoveryCodesLeft: 10, trustedBrowsers: 0 } });
    await act(async () => fireEvent.click(button(/确认开启/)));
    const grid = await screen.findByTestId('recovery-codes');
    expect(within(grid).getAllByText(/^abcd-efgh-\d{4}$/)).toHaveLength(10);
    expect(screen.getByText('请立即保存这些恢复码')).toBeInTheDocument();
    await act(async () => fireEvent.click(button(/我已保存/)));
    expect(await screen.findByText('10 个')).toBeInTheDocument();
    expect(screen.queryByTestId('recovery-codes')).not.toBeInTheDocument();
  });

  it('turns off with a code (a wrong one is shown in the dialog); trusted browsers can be forgotten after a confirmation', async () => {
    answer(identityApi.twoFactorStatus, { success: true, data: on });
    failOnce(identityApi.twoFactorDisable, {
      response: {
        status: 400,
        data: { success: false, errorMessage: '验证码或恢复码不正确', data: { code: ['验证码或恢复码不正确'] } },
      },
    });
    answerOnce(identityApi.twoFactorDisable, { success: true });
    answer(identityApi.twoFactorForgetBrowsers, { success: true, data: { forgotten: 1 } });
    renderAt('/user/security', <SecurityPage />);
    expect(await screen.findByText('即将用完，请重新生成')).toBeInTheDocument();

    await act(async () => fireEvent.click(button(/不再信任浏览器/)));
    {
      const target = await screen.findByRole('button', { name: /确\s*定/ });
      await act(async () => fireEvent.click(target));
    }
    expect(sent(identityApi.twoFactorForgetBrowsers)).not.toEqual([]);

    await act(async () => fireEvent.click(button(/关闭两步验证/)));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('验证码或恢复码'), { target: { value: '111111' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /关\s*闭/ })));
    expect(await within(dialog).findByText('验证码或恢复码不正确')).toBeInTheDocument();
    answer(identityApi.twoFactorStatus, { success: true, data: off });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: /关\s*闭/ })));
    expect(callsOf(identityApi.twoFactorDisable).at(-1)).toEqual([
      { body: { code: '111111' } },
      { skipErrorHandler: true },
    ]);
    expect(await screen.findByRole('button', { name: '开启两步验证' })).toBeInTheDocument();
  });

  it('cannot be turned off when the role requires it', async () => {
    answer(identityApi.twoFactorStatus, { success: true, data: { ...on, required: true } });
    renderAt('/user/security', <SecurityPage />);
    expect(await screen.findByText('你的账号角色要求开启两步验证，不能关闭。')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /关闭两步验证/ })).not.toBeInTheDocument();
  });

  it('a user who must set it up sees only that, and goes on to the redirect once it is on', async () => {
    state = { currentUser: { ...user, mustEnrollTwoFactor: true } };
    answer(identityApi.twoFactorSetup, {
      success: true,
      data: {
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/x',
        qrDataUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
      },
    });
    answer(identityApi.twoFactorEnable, { success: true, data: { recoveryCodes: CODES } });
    jest.mocked(fetchCurrentUser).mockResolvedValue({ success: true, data: user });
    renderAt('/user/security?redirect=%2Fnjit%2Foverview', <SecurityPage />);
    expect(await screen.findByText('你的账号需要先开启两步验证')).toBeInTheDocument();
    expect(screen.queryByText('邮箱')).not.toBeInTheDocument();
    expect(sent(identityApi.emailStatus)).toEqual([]);
    expect(sent(identityApi.listIdentities)).toEqual([]);
    {
      const target = await screen.findByRole('button', { name: '开启两步验证' });
      await act(async () => fireEvent.click(target));
    }
    fireEvent.change(await screen.findByLabelText('验证码'), { target: { value: '123456' } });
    await act(async () => fireEvent.click(button(/确认开启/)));
    {
      const target = await screen.findByRole('button', { name: /我已保存/ });
      await act(async () => fireEvent.click(target));
    }
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/njit\/overview$/));
    expect(state.currentUser?.mustEnrollTwoFactor).toBeUndefined();
  });
});

describe('e-mail', () => {
  it('sends a verification mail to a new address; a taken one is shown on the field', async () => {
    failOnce(identityApi.setEmail, {
      response: {
        status: 409,
        data: { success: false, errorMessage: '该邮箱已被其他账号使用', data: { email: ['该邮箱已被其他账号使用'] } },
      },
    });
    answerOnce(identityApi.setEmail, {
      success: true,
      data: { ...email, pendingEmail: 'a@example.edu', pendingSentAt: '2025-01-01T00:00:00.000Z' },
    });
    renderAt('/user/security', <SecurityPage />);
    const input = await screen.findByPlaceholderText('name@example.edu');
    fireEvent.change(input, { target: { value: 'not an address' } });
    await act(async () => fireEvent.click(button(/发送验证邮件/)));
    expect(await screen.findByText('邮箱地址格式不正确')).toBeInTheDocument();
    expect(sent(identityApi.setEmail)).toEqual([]);
    fireEvent.change(input, { target: { value: 'a@example.edu' } });
    await act(async () => fireEvent.click(button(/发送验证邮件/)));
    expect(await screen.findByText('该邮箱已被其他账号使用')).toBeInTheDocument();
    await act(async () => fireEvent.click(button(/发送验证邮件/)));
    expect(await screen.findByText('已于 2025-01-01 08:00 发送验证邮件')).toBeInTheDocument();
  });

  it('says to ask an administrator when the server has no mail', async () => {
    answer(identityApi.emailStatus, { success: true, data: { ...email, mailConfigured: false } });
    renderAt('/user/security', <SecurityPage />);
    expect(await screen.findByText('门户未配置邮件服务')).toBeInTheDocument();
    expect(button(/发送验证邮件/)).toBeDisabled();
  });
});

describe('campus identities', () => {
  it('lists them, links a configured provider, and unlinks after a confirmation', async () => {
    answer(identityApi.listIdentities, { success: true, data: { identities: [identity], passwordLogin: true } });
    answer(identityApi.unlinkIdentity, { success: true, data: { identities: [], passwordLogin: true } });
    renderAt('/user/security', <SecurityPage />);
    expect(await screen.findByText('2021001（张三）')).toBeInTheDocument();
    // CAS is linked already: no second link button for it.
    expect(screen.queryByRole('link', { name: /关联统一身份认证登录/ })).not.toBeInTheDocument();
    await act(async () => fireEvent.click(button(/解除关联/)));
    {
      const target = await screen.findByRole('button', { name: /^解\s?除$/ });
      await act(async () => fireEvent.click(target));
    }
    expect(call).toHaveBeenCalledWith(identityApi.unlinkIdentity, { params: { id: 7 } });
    expect(await screen.findByRole('link', { name: '关联统一身份认证登录' })).toHaveAttribute(
      'href',
      '/api/user/sso/cas/link',
    );
  });

  it('will not unlink the only way in of an account without a password', async () => {
    answer(identityApi.listIdentities, { success: true, data: { identities: [identity], passwordLogin: false } });
    renderAt('/user/security', <SecurityPage />);
    expect(await screen.findByText('你的账号没有可用的本地密码，只能通过统一身份认证登录')).toBeInTheDocument();
    expect(button(/解除关联/)).toBeDisabled();
  });

  it('shows why a link failed, and that one succeeded', async () => {
    renderAt('/user/security?sso_error=conflict', <SecurityPage />);
    expect(await screen.findByText('这个统一身份已关联到其他账号')).toBeInTheDocument();
  });
});
