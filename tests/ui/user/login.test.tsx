import { useModel } from '@@/plugin-model';
import LoginPage from '@/pages/user/login';
import { fetchAuthSettings, login } from '@/services/user';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/user', () => ({ login: jest.fn(), fetchAuthSettings: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const loginMock = jest.mocked(login);
const settingsMock = jest.mocked(fetchAuthSettings);
const setInitialState = jest.fn();
const admin = { uid: 1, username: 'admin', nickname: '管理员', avatar: null, roles: ['admin' as const] };

beforeEach(() => {
  localStorage.clear();
  loginMock.mockReset();
  setInitialState.mockReset();
  settingsMock.mockReset();
  settingsMock.mockResolvedValue({ success: true, data: { registration: 'open' } });
  jest.mocked(useModel).mockReturnValue({ setInitialState, initialState: { currentUser: null } } as never);
});

async function submit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('用户名'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ })));
}

describe('login page', () => {
  it('logs in, stores the user and goes to the redirect target', async () => {
    loginMock.mockResolvedValue({ success: true, data: admin });
    renderAt('/user/login?redirect=%2FOCS%2Fbill%3Fpage%3D2', <LoginPage />, '/user/login');
    await submit('admin', 'admin123456');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/bill\?page=2$/));
    expect(loginMock).toHaveBeenCalledWith(
      { username: 'admin', password: 'admin123456', remember: true },
      { skipErrorHandler: true },
    );
    expect(setInitialState).toHaveBeenCalled();
    expect(JSON.parse(localStorage.getItem('initialState')!)).toEqual(admin);
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

  it('sends remember:false when 记住我 is unticked', async () => {
    loginMock.mockResolvedValue({ success: true, data: admin });
    renderAt('/user/login', <LoginPage />, '/user/login');
    fireEvent.click(screen.getByRole('checkbox'));
    await submit('admin', 'admin123456');
    expect(loginMock.mock.calls[0][0]).toMatchObject({ remember: false });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
  });

  it.each(['%2F%2Fevil.com', 'https%3A%2F%2Fevil.com', '%2F%5Cevil.com', 'javascript%3Aalert(1)'])(
    'ignores an off-site redirect (%s) and goes to /home',
    async (redirect) => {
      loginMock.mockResolvedValue({ success: true, data: admin });
      renderAt(`/user/login?redirect=${redirect}`, <LoginPage />, '/user/login');
      await submit('admin', 'admin123456');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
    },
  );

  it('shows the server message when throttled and stays on the page', async () => {
    loginMock.mockRejectedValue({
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
  });

  it('asks for both fields before calling the API', async () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /登\s*录/ })));
    expect(await screen.findByText('请输入用户名')).toBeInTheDocument();
    expect(screen.getByText('请输入密码')).toBeInTheDocument();
    expect(loginMock).not.toHaveBeenCalled();
  });

  it('links to registration while registration is open', async () => {
    renderAt('/user/login', <LoginPage />, '/user/login');
    expect(await screen.findByText('注册账号')).toBeInTheDocument();
  });

  it('hides the registration link when registration is closed', async () => {
    settingsMock.mockResolvedValue({ success: true, data: { registration: 'closed' } });
    renderAt('/user/login', <LoginPage />, '/user/login');
    await waitFor(() => expect(settingsMock).toHaveBeenCalledTimes(1));
    await act(async () => {});
    expect(screen.queryByText('注册账号')).not.toBeInTheDocument();
  });
});
