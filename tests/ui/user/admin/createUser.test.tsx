import CreateUserPage from '@/pages/user/admin/createUser';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, sent } from '../../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';

jest.mock('@/services/call');

const carol = {
  uid: 9,
  username: 'carol',
  nickname: null,
  avatar: null,
  roles: ['njit' as const],
  status: 'active' as const,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastLoginAt: null,
  activeTokens: 0,
  recentLoginFailures: 0,
};

const submit = () => act(async () => fireEvent.click(screen.getByText('创建用户', { selector: 'button span' })));

describe('create user', () => {
  it('checks the contract rules before sending', async () => {
    renderAt('/user/admin/createUser', <CreateUserPage />);
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'a b' } });
    fireEvent.change(screen.getByLabelText('初始密码'), { target: { value: 'short' } });
    await submit();
    expect(await screen.findByText('用户名只能包含字母、数字、下划线和连字符')).toBeInTheDocument();
    expect(screen.getByText('密码至少 8 个字符')).toBeInTheDocument();
    expect(sent(userApi.adminCreateUser)).toEqual([]);
  });

  it('generates a password and shows it once with a copy button', async () => {
    answer(userApi.adminCreateUser, { success: true, data: { ...carol, generatedPassword: 'Xk9-init-Pass' } });
    renderAt('/user/admin/createUser', <CreateUserPage />);
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'carol' } });
    fireEvent.click(screen.getByLabelText('自动生成初始密码（创建后只显示一次）'));
    expect(screen.queryByLabelText('初始密码')).not.toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('NJIT（njit）'));
    await submit();
    await waitFor(() => expect(sent(userApi.adminCreateUser)).not.toEqual([]));
    expect(call).toHaveBeenCalledWith(
      userApi.adminCreateUser,
      { body: { username: 'carol', generatePassword: true, roles: ['njit'] } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('Xk9-init-Pass')).toBeInTheDocument();
    expect(screen.getByText('该初始密码只显示这一次，请立即复制保存')).toBeInTheDocument();
    expect(screen.getByLabelText('复制')).toBeInTheDocument();
    expect(screen.getByText('编辑该用户').closest('a')).toHaveAttribute('href', '/user/admin/editUser?uid=9');
  });

  it('puts a taken username (409) on the form', async () => {
    fail(userApi.adminCreateUser, {
      response: {
        status: 409,
        data: {
          success: false,
          errorCode: 'USERNAME_TAKEN',
          errorMessage: '用户名已被占用',
          data: { username: ['用户名已被占用'] },
        },
      },
    });
    renderAt('/user/admin/createUser', <CreateUserPage />);
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('初始密码'), { target: { value: 'password123' } });
    await submit();
    expect(sent(userApi.adminCreateUser)[0]?.body).toEqual({
      username: 'admin',
      generatePassword: false,
      password: 'password123',
      roles: [],
    });
    const field = screen.getByLabelText('用户名').closest('.ant-form-item') as HTMLElement;
    await waitFor(() => expect(field).toHaveTextContent('用户名已被占用'));
    expect(screen.getByText('用户名已被占用', { selector: '.ant-alert-message' })).toBeInTheDocument();
  });
});
