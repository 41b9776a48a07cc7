import { useModel } from '@@/plugin-model';
import LoginPage from '@/pages/user/login';
import * as identityApi from '@/contract/api/identity';
import { fetchAuthSettings } from '@/services/probes';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, failOnce, sent } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@/services/probes', () => ({ fetchAuthSettings: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const settingsMock = jest.mocked(fetchAuthSettings);
const SETTINGS = { registration: 'open' as const, passwordReset: true, sso: { cas: null, oidc: null } };
const setInitialState = jest.fn();
const admin = { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin' as const] };

beforeEach(() => {
  localStorage.clear();
  setInitialState.mockReset();
  settingsMock.mockReset();
  settingsMock.mockResolvedValue({ success: true, data: SETTINGS });
  jest.mocked(useModel).mockReturnValue({ setInitialState, initialState: { currentUser: null } } as never);
});

async function submit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ })));
}

describe('login page', () => {
  it('logs in, stores the user and goes to the redirect target', async () => {
    answer(userApi.login, { success: true, data: admin });
    renderAt('/user/login?redirect=%2FOCS%2Fbill%3Fpage%3D2', <LoginPage />, '/user/login');
    await submit('admin', 'admin123456');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/bill\?page=2$/));
    expect(call).toHaveBeenCalledWith(
      userApi.login,
      { body: { username: 'admin', password: 'admin123456', remember: true } },
      { skipErrorHandler: true },
    );
    expect(setInitialState).toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem('initialState')!)).toEqual(admin);
    expect(await screen.findByText('登录成功')).toBeInTheDocument();
  });

  it('puts the focus in the username field on arrival', async () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    expect(await screen.findByLabelText('用户名')).toHaveFocus();
  });

  it('shows 返回首页 and 注册账号 as antd links (no browser underline), which navigate in the app', async () => {
    renderAt('/user/login?redirect=%2FOCS', <LoginPage />, '/user/login');
    const register = await screen.findByRole('link', { name: '注册账号' });
    const home = screen.getByRole('link', { name: '返回首页' });
    // antd's link look: its link colour, no browser underline.
    for (const link of [home, register]) expect(link).toHaveStyle({ color: '#1677ff', textDecoration: 'none' });
    expect(home).toHaveAttribute('href', '/home');
    expect(register).toHaveAttribute('href', '/user/register?redirect=%2FOCS');
    fireEvent.click(home);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/);
  });

  it('keeps the button turning once signed in, until the next page takes the place of the login page', async () => {
    answer(userApi.login, { success: true, data: admin });
    renderAt('/user/login', <LoginPage />); // the page stays rendered after the move, as while the next one loads
    await submit('admin', 'admin123456');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
    expect(screen.getByRole('button', { name: /登\s*录/ })).toHaveClass('ant-btn-loading');
  });

  it('sends remember:false when 记住我 is unticked', async () => {
    answer(userApi.login, { success: true, data: admin });
    renderAt('/user/login', <LoginPage />, '/user/login');
    fireEvent.click(screen.getByRole('checkbox'));
    await submit('admin', 'admin123456');
    expect(sent(userApi.login)[0]?.body).toMatchObject({ remember: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
  });

  it.each(['%2F%2Fevil.com', 'https%3A%2F%2Fevil.com', '%2F%5Cevil.com', 'javascript%3Aalert(1)'])(
    'ignores an off-site redirect (%s) and goes to /home',
    async (redirect) => {
      answer(userApi.login, { success: true, data: admin });
      renderAt(`/user/login?redirect=${redirect}`, <LoginPage />, '/user/login');
      await submit('admin', 'admin123456');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
    },
  );

  it('shows the server message when throttled and stays on the page', async () => {
    fail(userApi.login, {
      response: {
        status: 429,
        data: { success: false, errorCode: 'TOO_MANY', errorMessage: '登录失败次数过多，请 15 分钟后再试' },
      },
    });
    renderAt('/user/login?redirect=%2FOCS', <LoginPage />, '/user/login');
    await submit('admin', 'wrong-password');
    expect(await screen.findByText('登录失败次数过多，请 15 分钟后再试')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/user/login?redirect=%2FOCS');
    expect(setInitialState).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /登\s*录/ })).not.toHaveClass('ant-btn-loading'); // can try again
  });

  it('under attack, says a sign-in link may be on its way to the verified address, and stays on the page', async () => {
    answer(userApi.login, { success: true, data: { loginLink: true, minutes: 15 } });
    renderAt('/user/login', <LoginPage />, '/user/login');
    await submit('alice', 'a-password');
    expect(await screen.findByText('请查收登录链接')).toBeInTheDocument();
    expect(screen.getByText(/登录链接已发送到该账号验证过的邮箱，请在 15 分钟内打开/)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/login$/);
    expect(setInitialState).not.toHaveBeenCalled();
    // Another try clears it until the answer.
    fail(userApi.login, {
      response: { status: 401, data: { success: false, errorMessage: '用户名或密码错误' } },
    });
    await submit('alice', 'other');
    expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
    expect(screen.queryByText('请查收登录链接')).not.toBeInTheDocument();
  });

  it('asks for both fields before calling the API', async () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ })));
    expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(sent(userApi.login)).toEqual([]);
  });

  it('links to registration while registration is open', async () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    expect(await screen.findByText('注册账号')).toBeInTheDocument();
  });

  it('hides the registration link when registration is closed', async () => {
    settingsMock.mockResolvedValue({ success: true, data: { ...SETTINGS, registration: 'closed' } });
    renderAt('/user/login', <LoginPage />, '/user/login');
    await waitFor(() => expect(settingsMock).toHaveBeenCalledTimes(1));
    await act(async () => {});
    expect(screen.queryByText('注册账号')).not.toBeInTheDocument();
  });

  it('asks for the code after the password, and signs in with it (trusting the browser when asked)', async () => {
    answer(userApi.login, { success: true, data: { challenge: 'totp' } });
    answer(identityApi.loginVerify, { success: true, data: admin });
    renderAt('/user/login?redirect=%2FUMS%2Fself', <LoginPage />); // stays rendered after the move
    await submit('admin', 'admin123456');
    expect(setInitialState).not.toHaveBeenCalled();
    const code = await screen.findByLabelText('验证码');
    expect(screen.getByText('统一门户 · 两步验证')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
    expect(await screen.findByText('请输入验证码')).toBeInTheDocument();
    fireEvent.change(code, { target: { value: '12ab' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
    expect(await screen.findByText('验证码是 6 位数字')).toBeInTheDocument();
    expect(sent(identityApi.loginVerify)).toEqual([]);
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('checkbox'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
    expect(call).toHaveBeenCalledWith(
      identityApi.loginVerify,
      { body: { code: '123456', trustBrowser: true } },
      { skipErrorHandler: true },
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/UMS\/self$/));
    expect(setInitialState).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /验证并登录/ })).toHaveClass('ant-btn-loading');
  });

  it('takes a recovery code, shows a wrong code, and goes back to the password when the challenge expired', async () => {
    answer(userApi.login, { success: true, data: { challenge: 'totp' } });
    failOnce(identityApi.loginVerify, {
      response: {
        status: 401,
        data: { success: false, errorCode: 'UNAUTHORIZED', errorMessage: '验证码不正确，还可以再试 4 次' },
      },
    });
    failOnce(identityApi.loginVerify, {
      response: {
        status: 401,
        data: {
          success: false,
          errorCode: 'CHALLENGE_EXPIRED',
          errorMessage: '验证码错误次数过多，请重新输入密码登录',
        },
      },
    });
    renderAt('/user/login', <LoginPage />, '/user/login');
    await submit('admin', 'admin123456');
    fireEvent.click(await screen.findByRole('button', { name: /使用恢复码/ }));
    const code = screen.getByLabelText('恢复码');
    fireEvent.change(code, { target: { value: 'abcd-efgh-jkmn' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
    expect(call).toHaveBeenCalledWith(
      identityApi.loginVerify,
      { body: { code: 'abcd-efgh-jkmn', trustBrowser: false } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('验证码不正确，还可以再试 4 次')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /验证并登录/ })).not.toHaveClass('ant-btn-loading');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
    expect(await screen.findByText('验证码错误次数过多，请重新输入密码登录')).toBeInTheDocument();
    expect(screen.getByLabelText('密码')).toBeInTheDocument(); // the password step again
  });

  it('starts at the code when a campus sign-in needs it (step=2fa)', async () => {
    answer(identityApi.loginVerify, { success: true, data: admin });
    renderAt('/user/login?step=2fa&redirect=%2FOCS', <LoginPage />, '/user/login');
    fireEvent.change(await screen.findByLabelText('验证码'), { target: { value: '654321' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS$/));
  });

  it('hands the shell a user whose role requires two-factor sign-in (it leads them to the set-up)', async () => {
    answer(userApi.login, { success: true, data: { ...admin, mustEnrollTwoFactor: true } });
    renderAt('/user/login?redirect=%2Fnjit%2Foverview', <LoginPage />, '/user/login');
    await submit('admin', 'admin123456');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/njit\/overview$/));
    expect(JSON.parse(localStorage.getItem('initialState')!)).toMatchObject({ mustEnrollTwoFactor: true });
  });

  it('offers the configured campus sign-in buttons, keeping the redirect, and a way to reset a forgotten password', async () => {
    settingsMock.mockResolvedValue({
      success: true,
      data: {
        ...SETTINGS,
        sso: {
          cas: { label: '统一身份认证登录', loginUrl: '/api/user/sso/cas/login' },
          oidc: { label: '校园门户登录', loginUrl: '/api/user/sso/oidc/login' },
        },
      },
    });
    renderAt('/user/login?redirect=%2FOCS', <LoginPage />, '/user/login');
    const cas = await screen.findByRole('link', { name: '统一身份认证登录' });
    expect(cas).toHaveAttribute('href', '/api/user/sso/cas/login?redirect=%2FOCS');
    expect(screen.getByRole('link', { name: '校园门户登录' })).toHaveAttribute(
      'href',
      '/api/user/sso/oidc/login?redirect=%2FOCS',
    );
    expect(screen.getByRole('link', { name: '忘记密码？' })).toHaveAttribute('href', '/user/forgotPassword');
  });

  it('shows no campus buttons when none is configured', async () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    await screen.findByText('注册账号');
    expect(screen.queryByRole('link', { name: /统一身份认证/ })).not.toBeInTheDocument();
  });

  it.each([
    ['ticket', '统一身份认证的登录凭据无效、已使用或已过期，请重新登录'],
    ['unreachable', '暂时无法连接身份认证服务器，请稍后再试，或使用账号密码登录'],
    ['<script>', '统一身份认证登录失败，请稍后再试'],
  ])('explains a failed campus sign-in (sso_error=%s) in Chinese, never echoing the URL', async (code, text) => {
    renderAt(`/user/login?sso_error=${encodeURIComponent(code)}`, <LoginPage />, '/user/login');
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.queryByText(/<script>/)).not.toBeInTheDocument();
  });
});

// The server sends /user/login with a static copy of the form (scripts/prerender-login.tsx); the page
// takes its place when it mounts, with what was typed into it (src/prerendered.ts).
describe('login page over its prerendered copy', () => {
  let copy: HTMLElement;
  beforeEach(() => {
    copy = document.createElement('div');
    copy.id = 'prerendered';
    copy.innerHTML =
      '<form><input autocomplete="username" aria-label="静态用户名"><input type="password" ' +
      'autocomplete="current-password" aria-label="静态密码"><button type="button">登 录</button></form>';
    document.body.prepend(copy);
  });
  afterEach(() => copy.remove());

  it('takes what was typed into the copy, and its focus, then signs in with it', async () => {
    (copy.querySelector('[autocomplete="username"]') as HTMLInputElement).value = 'admin';
    const password = copy.querySelector('[autocomplete="current-password"]') as HTMLInputElement;
    password.value = 'admin123456';
    password.focus();
    answer(userApi.login, { success: true, data: admin });
    renderAt('/user/login?redirect=%2FOCS', <LoginPage />, '/user/login');
    expect(document.getElementById('prerendered')).toBeNull();
    expect(screen.getByLabelText('用户名')).toHaveValue('admin');
    expect(screen.getByLabelText('密码')).toHaveValue('admin123456');
    expect(screen.getByLabelText('密码')).toHaveFocus();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ })));
    expect(call).toHaveBeenCalledWith(
      userApi.login,
      { body: { username: 'admin', password: 'admin123456', remember: true } },
      { skipErrorHandler: true },
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS$/));
  });

  it('sends the form at once when 登录 was pressed on the copy before the app had started', async () => {
    (copy.querySelector('[autocomplete="username"]') as HTMLInputElement).value = 'admin';
    (copy.querySelector('[autocomplete="current-password"]') as HTMLInputElement).value = 'admin123456';
    copy.setAttribute('data-submitted', '');
    answer(userApi.login, { success: true, data: admin });
    renderAt('/user/login?redirect=%2FOCS', <LoginPage />, '/user/login');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS$/));
    expect(sent(userApi.login)).toHaveLength(1);
    expect(call).toHaveBeenCalledWith(
      userApi.login,
      { body: { username: 'admin', password: 'admin123456', remember: true } },
      { skipErrorHandler: true },
    );
  });

  it('a press of 登录 on an empty copy asks for the fields, sending nothing', async () => {
    copy.setAttribute('data-submitted', '');
    renderAt('/user/login', <LoginPage />, '/user/login');
    expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
    expect(await screen.findByText('请输入密码')).toBeInTheDocument();
    expect(sent(userApi.login)).toEqual([]);
  });

  it('takes an untouched copy away and leaves the form empty, the focus in the username field', () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    expect(document.getElementById('prerendered')).toBeNull();
    expect(screen.getByLabelText('用户名')).toHaveValue('');
    expect(screen.getByLabelText('密码')).toHaveValue('');
    expect(screen.getByLabelText('用户名')).toHaveFocus();
  });

  it('takes the copy away on the code step too, without filling anything', async () => {
    (copy.querySelector('[autocomplete="username"]') as HTMLInputElement).value = 'admin';
    renderAt('/user/login?step=2fa', <LoginPage />, '/user/login');
    expect(document.getElementById('prerendered')).toBeNull();
    expect(await screen.findByText('统一门户 · 两步验证')).toBeInTheDocument();
  });

  it('renders, for the copy, a button that sends nothing and turns until the app has started', () => {
    copy.remove();
    renderAt('/user/login', <LoginPage prerendering />, '/user/login');
    const button = screen.getByRole('button', { name: /登\s*录/ });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('ant-btn-loading');
  });
});
