import { useModel } from '@@/plugin-model';
import SsoBindPage from '@/pages/user/ssoBind';
import * as identityApi from '@/contract/api/identity';
import { answer, answerOnce, callsOf, failOnce } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const setInitialState = jest.fn();
const user = { uid: 5, username: 'zhangsan', nickname: '张三', avatar: null, roles: [] };
const pending = {
  provider: 'cas' as const,
  providerName: '统一身份认证登录',
  subject: '2021001',
  displayName: '张三',
  email: null,
  canCreate: false,
};

beforeEach(() => {
  jest.clearAllMocks();
  jest.mocked(useModel).mockReturnValue({ setInitialState, initialState: { currentUser: null } } as never);
});

async function link(username: string, password: string) {
  fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /关联并登录/ })));
}

it('shows the identity, links it with the local password, and goes to the redirect', async () => {
  answer(identityApi.ssoPending, { success: true, data: pending });
  failOnce(identityApi.ssoPendingLink, {
    response: { status: 401, data: { success: false, errorMessage: '用户名或密码错误' } },
  });
  answerOnce(identityApi.ssoPendingLink, { success: true, data: user });
  renderAt('/user/ssoBind?redirect=%2FOCS%2Fbill', <SsoBindPage />);
  expect(await screen.findByText('2021001（张三）')).toBeInTheDocument();
  expect(screen.getByText('没有门户账号？请联系管理员为你的统一身份开通或关联账号。')).toBeInTheDocument();
  await link('zhangsan', 'wrong');
  expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: /关联并登录/ })).not.toHaveClass('ant-btn-loading');
  await link('zhangsan', 'right-password');
  expect(callsOf(identityApi.ssoPendingLink).at(-1)).toEqual([
    { body: { username: 'zhangsan', password: 'right-password' } },
    { skipErrorHandler: true },
  ]);
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/bill$/));
  expect(setInitialState).toHaveBeenCalled();
  // Signed in: the button keeps turning until the next page takes this one's place.
  expect(screen.getByRole('button', { name: /关联并登录/ })).toHaveClass('ant-btn-loading');
});

it('asks for the code when the linked account has two-factor sign-in', async () => {
  answer(identityApi.ssoPending, { success: true, data: pending });
  answer(identityApi.ssoPendingLink, { success: true, data: { challenge: 'totp' } });
  answer(identityApi.loginVerify, { success: true, data: user });
  renderAt('/user/ssoBind', <SsoBindPage />);
  await link('zhangsan', 'right-password');
  fireEvent.change(await screen.findByLabelText('验证码'), { target: { value: '123456' } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /验证并登录/ })));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
});

it('offers a new account when the server allows it', async () => {
  answer(identityApi.ssoPending, { success: true, data: { ...pending, canCreate: true } });
  answer(identityApi.ssoPendingCreate, { success: true, data: user });
  renderAt('/user/ssoBind', <SsoBindPage />);
  {
    const target = await screen.findByRole('button', { name: /创建新账号并登录/ });
    await act(async () => fireEvent.click(target));
  }
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
});

it('says when nothing is waiting (expired), with the way back', async () => {
  answer(identityApi.ssoPending, { success: true, data: null });
  renderAt('/user/ssoBind', <SsoBindPage />);
  expect(await screen.findByText('没有待关联的统一身份')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: '返回登录' })).toHaveAttribute('href', '/user/login');
});
