import { useModel } from '@@/plugin-model';
import EditUserPage from '@/pages/user/admin/editUser';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, sent } from '../../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));
// The sign-in card (two-factor, password, identities) has its own test: here it stays loading (its call
// is never answered).
jest.mock('@/services/call');

const alice = {
  uid: 2,
  username: 'alice',
  nickname: '爱丽丝',
  avatar: null,
  roles: ['njit' as const],
  status: 'active' as const,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastLoginAt: null,
  activeTokens: 1,
  recentLoginFailures: 0,
};
const admin = { ...alice, uid: 1, username: 'admin', nickname: null, roles: ['admin' as const] };

function loggedInAs(uid: number) {
  jest
    .mocked(useModel)
    .mockReturnValue({ initialState: { currentUser: { uid, username: 'x', roles: ['admin'] } } } as never);
}

beforeEach(() => {
  answer(userApi.adminGetUser, { success: true, data: alice });
  loggedInAs(1);
});

const button = (text: RegExp | string) =>
  screen.getByText(text, { selector: 'button span' }).closest('button') as HTMLElement;
const save = () => act(async () => fireEvent.click(button(/^保\s?存$/)));

describe('edit user', () => {
  it('says so when the uid is missing', async () => {
    renderAt('/user/admin/editUser', <EditUserPage />);
    expect(await screen.findByText('缺少用户 ID')).toBeInTheDocument();
    expect(sent(userApi.adminGetUser)).toEqual([]);
  });

  it('shows the contract validation messages and sends nothing', async () => {
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    const nickname = await screen.findByLabelText('昵称');
    expect(call).toHaveBeenCalledWith(userApi.adminGetUser, { params: { id: 2 } }, { skipErrorHandler: true });
    expect(nickname).toHaveValue('爱丽丝');
    fireEvent.change(nickname, { target: { value: '长'.repeat(33) } });
    await save();
    expect(await screen.findByText('昵称最多 32 个字符')).toBeInTheDocument();
    expect(sent(userApi.adminUpdateUser)).toEqual([]);
  });

  it('sends only the changed fields', async () => {
    answer(userApi.adminUpdateUser, {
      success: true,
      data: { ...alice, nickname: null, roles: ['admin', 'njit'], endedSessions: 0 },
    });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    fireEvent.change(await screen.findByLabelText('昵称'), { target: { value: '  ' } });
    fireEvent.click(screen.getByLabelText('管理员（admin）'));
    await save();
    await waitFor(() => expect(sent(userApi.adminUpdateUser)).not.toEqual([]));
    expect(call).toHaveBeenCalledWith(
      userApi.adminUpdateUser,
      { params: { id: 2 }, body: { nickname: null, roles: ['admin', 'njit'] } },
      { skipErrorHandler: true },
    );
  });

  it('confirms before disabling, saying sessions end and tokens stop working', async () => {
    answer(userApi.adminUpdateUser, { success: true, data: { ...alice, status: 'disabled', endedSessions: 2 } });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    fireEvent.click(await screen.findByLabelText('账号状态'));
    await save();
    expect(await screen.findByText(/立即结束该用户的所有登录会话；停用期间其 API 令牌无法使用/)).toBeInTheDocument();
    await act(async () => fireEvent.click(button(/^取\s?消$/)));
    expect(sent(userApi.adminUpdateUser)).toEqual([]);

    await save();
    await act(async () => fireEvent.click(await screen.findByText('停用并保存')));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        userApi.adminUpdateUser,
        { params: { id: 2 }, body: { status: 'disabled' } },
        { skipErrorHandler: true },
      ),
    );
  });

  it('shows the server refusal (last active admin)', async () => {
    answer(userApi.adminGetUser, { success: true, data: { ...alice, roles: ['admin'] } });
    fail(userApi.adminUpdateUser, {
      response: {
        status: 409,
        data: { success: false, errorCode: 'LAST_ADMIN', errorMessage: '这是最后一个有效的管理员，不能移除' },
      },
    });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    fireEvent.click(await screen.findByLabelText('管理员（admin）'));
    await save();
    expect(await screen.findByText('这是最后一个有效的管理员，不能移除')).toBeInTheDocument();
  });

  it('does not let an admin remove their own admin role or disable themselves', async () => {
    answer(userApi.adminGetUser, { success: true, data: admin });
    renderAt('/user/admin/editUser?uid=1', <EditUserPage />);
    expect(await screen.findByLabelText('管理员（admin）')).toBeDisabled();
    expect(screen.getByLabelText('NJIT（njit）')).toBeEnabled();
    expect(screen.getByLabelText('账号状态')).toBeDisabled();
    expect(screen.getByText('不能移除自己的管理员角色。')).toBeInTheDocument();
    expect(screen.getByText('不能停用自己的账号。')).toBeInTheDocument();
  });

  it('resets the password after confirmation and shows a generated one once', async () => {
    answer(userApi.adminResetPassword, {
      success: true,
      data: { endedSessions: 3, revokedTokens: 1, generatedPassword: 'Gen3rated-Pass' },
    });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    await screen.findByLabelText('昵称');
    await act(async () => fireEvent.click(button('重置密码')));
    expect(await screen.findByText(/会结束该用户的所有会话/)).toBeInTheDocument();
    expect(sent(userApi.adminResetPassword)).toEqual([]);
    const confirm = screen.getAllByText('重置密码', { selector: '.ant-modal button span' })[0];
    await act(async () => fireEvent.click(confirm));
    expect(call).toHaveBeenCalledWith(
      userApi.adminResetPassword,
      { params: { id: 2 }, body: { generatePassword: true, revokeTokens: true } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('Gen3rated-Pass')).toBeInTheDocument();
    expect(screen.getByText('该新密码只显示这一次，请立即复制保存')).toBeInTheDocument();
    expect(screen.getByText('密码已重置，已结束该用户的 3 个会话，吊销 1 个个人令牌')).toBeInTheDocument();
  });

  it('keeps the tokens when the administrator unticks 同时吊销', async () => {
    answer(userApi.adminResetPassword, { success: true, data: { endedSessions: 1, revokedTokens: 0 } });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    await screen.findByLabelText('昵称');
    fireEvent.click(screen.getByLabelText('同时吊销该用户的全部个人令牌'));
    await act(async () => fireEvent.click(button('重置密码')));
    expect(await screen.findByText(/其个人令牌保持有效/)).toBeInTheDocument();
    const confirm = screen.getAllByText('重置密码', { selector: '.ant-modal button span' })[0];
    await act(async () => fireEvent.click(confirm));
    expect(call).toHaveBeenCalledWith(
      userApi.adminResetPassword,
      { params: { id: 2 }, body: { generatePassword: true, revokeTokens: false } },
      { skipErrorHandler: true },
    );
  });
});

describe('sign-in safety', () => {
  it('shows a restricted login and lifts it after confirmation', async () => {
    answer(userApi.adminGetUser, { success: true, data: { ...alice, recentLoginFailures: 7 } });
    answer(userApi.adminUnlockLogin, { success: true, data: { clearedFailures: 7 } });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    expect(await screen.findByText('登录受限')).toBeInTheDocument();
    expect(screen.getByText('7 次')).toBeInTheDocument();
    await act(async () => fireEvent.click(button('解除登录限制')));
    expect(sent(userApi.adminUnlockLogin)).toEqual([]);
    await act(async () => fireEvent.click(screen.getByText(/^解\s?除$/, { selector: '.ant-popconfirm button span' })));
    expect(call).toHaveBeenCalledWith(userApi.adminUnlockLogin, { params: { id: 2 } }, { skipErrorHandler: true });
    expect(await screen.findByText('已解除登录限制（清除 7 条失败记录）')).toBeInTheDocument();
    await waitFor(() => expect(sent(userApi.adminGetUser)).toHaveLength(2));
  });

  it('revokes every token of the user after confirmation; nothing to revoke disables the button', async () => {
    answer(userApi.adminRevokeTokens, { success: true, data: { revokedTokens: 1 } });
    renderAt('/user/admin/editUser?uid=2', <EditUserPage />);
    await screen.findByText('1 个');
    expect(button('解除登录限制')).toBeDisabled();
    await act(async () => fireEvent.click(button('吊销全部令牌')));
    expect(await screen.findByText('吊销该用户的全部个人令牌？')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText(/^吊\s?销$/, { selector: '.ant-popconfirm button span' })));
    expect(call).toHaveBeenCalledWith(userApi.adminRevokeTokens, { params: { id: 2 } }, { skipErrorHandler: true });
    expect(await screen.findByText('已吊销 1 个个人令牌')).toBeInTheDocument();
  });
});
