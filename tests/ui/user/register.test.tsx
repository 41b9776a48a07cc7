import { useModel } from '@@/plugin-model';
import RegisterPage from '@/pages/user/register';
import { fetchAuthSettings } from '@/services/probes';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@/services/probes', () => ({ fetchAuthSettings: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const settingsMock = jest.mocked(fetchAuthSettings);
const setInitialState = jest.fn();

beforeEach(() => {
  settingsMock.mockReset();
  settingsMock.mockResolvedValue({
    success: true,
    data: { registration: 'open', passwordReset: false, sso: { cas: null, oidc: null } },
  });
  jest.mocked(useModel).mockReturnValue({ setInitialState, initialState: { currentUser: null } } as never);
});

async function fill(values: Record<string, string>) {
  await screen.findByLabelText('用户名');
  for (const [label, value] of Object.entries(values)) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /注\s*册/ })));
}

describe('register page', () => {
  it('applies the contract rules on the client', async () => {
    renderAt('/user/register', <RegisterPage />, '/user/register');
    await fill({ 用户名: 'a b', 密码: 'short', 确认密码: 'other', 昵称: 'x'.repeat(33) });
    expect(await screen.findByText('用户名只能包含字母、数字、下划线和连字符')).toBeInTheDocument();
    expect(screen.getByText('密码至少 8 个字符')).toBeInTheDocument();
    expect(screen.getByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(screen.getByText('昵称最多 32 个字符')).toBeInTheDocument();
    expect(sent(userApi.register)).toEqual([]);
  });

  it('shows a duplicate username (409) clearly', async () => {
    fail(userApi.register, {
      response: { status: 409, data: { success: false, errorCode: 'USERNAME_TAKEN', errorMessage: '用户名已被占用' } },
    });
    renderAt('/user/register', <RegisterPage />, '/user/register');
    await fill({ 用户名: 'alice', 密码: 'password123', 确认密码: 'password123' });
    expect(await screen.findByText('用户名已被占用')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/user\/register$/);
    expect(screen.getByRole('button', { name: /注\s*册/ })).not.toHaveClass('ant-btn-loading'); // can try again
  });

  it('logs the new user in and goes to /home, the button turning until the home page takes its place', async () => {
    const user = { uid: 9, username: 'alice', nickname: '爱丽丝', avatar: null, roles: [] };
    answer(userApi.register, { success: true, data: user });
    renderAt('/user/register', <RegisterPage />); // the page stays rendered after the move, as while /home loads
    await fill({ 用户名: 'alice', 密码: 'password123', 确认密码: 'password123', 昵称: ' 爱丽丝 ' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
    expect(screen.getByRole('button', { name: /注\s*册/ })).toHaveClass('ant-btn-loading');
    expect(call).toHaveBeenCalledWith(
      userApi.register,
      { body: { username: 'alice', password: 'password123', nickname: '爱丽丝' } },
      { skipErrorHandler: true },
    );
    expect(setInitialState).toHaveBeenCalled();
    expect(await screen.findByText('注册成功，已为你登录')).toBeInTheDocument();
  });

  it('keeps the way back: ?redirect= leads there after registering, and the link to login keeps it', async () => {
    const user = { uid: 9, username: 'alice', nickname: null, avatar: null, roles: [] };
    answer(userApi.register, { success: true, data: user });
    renderAt('/user/register?redirect=%2FOCS%2Fbill%3Fpage%3D2', <RegisterPage />);
    expect(await screen.findByRole('link', { name: '已有账号？去登录' })).toHaveAttribute(
      'href',
      '/user/login?redirect=%2FOCS%2Fbill%3Fpage%3D2',
    );
    await fill({ 用户名: 'alice', 密码: 'password123', 确认密码: 'password123' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/bill\?page=2$/));
  });

  it('refuses a redirect to another site and goes home instead', async () => {
    answer(userApi.register, {
      success: true,
      data: { uid: 9, username: 'alice', nickname: null, avatar: null, roles: [] },
    });
    renderAt('/user/register?redirect=https%3A%2F%2Fevil.example%2F', <RegisterPage />);
    await fill({ 用户名: 'alice', 密码: 'password123', 确认密码: 'password123' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
  });

  it('says so when registration is closed', async () => {
    settingsMock.mockResolvedValue({
      success: true,
      data: { registration: 'closed', passwordReset: false, sso: { cas: null, oidc: null } },
    });
    renderAt('/user/register', <RegisterPage />, '/user/register');
    expect(await screen.findByText('注册已关闭')).toBeInTheDocument();
    expect(screen.queryByLabelText('用户名')).not.toBeInTheDocument();
  });
});
