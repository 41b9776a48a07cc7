import SignInCard from '@/pages/user/admin/editUser/components/SignInCard';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { answer, fail, sent } from '../../api';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../../helpers';

jest.mock('@/services/call');

const identity = {
  id: 3,
  provider: 'cas' as const,
  subject: '2021001',
  displayName: '张三',
  email: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastLoginAt: null,
};
const security = {
  twoFactorEnabled: true,
  twoFactorEnabledAt: '2025-01-01T00:00:00.000Z',
  recoveryCodesLeft: 8,
  twoFactorRequired: true,
  passwordLogin: true,
  hasPassword: true,
  email: 'zs@example.edu',
  identities: [identity],
};

beforeEach(() => {
  jest.clearAllMocks();
  answer(identityApi.adminUserSecurity, { success: true, data: security });
});

const confirm = async () => {
  const ok = await screen.findAllByRole('button', { name: /^(重\s?置|确\s?定|解\s?除)$/ });
  await act(async () => fireEvent.click(ok[ok.length - 1]));
};

it('shows the second factor, the password and the identities; resets the second factor after a confirmation', async () => {
  answer(identityApi.adminResetTwoFactor, {
    success: true,
    data: { ...security, twoFactorEnabled: false, twoFactorEnabledAt: null, recoveryCodesLeft: 0 },
  });
  renderAt('/user/admin/editUser?uid=4', <SignInCard uid={4} />);
  expect(await screen.findByText('已开启（2025-01-01 08:00）')).toBeInTheDocument();
  expect(screen.getByText('角色要求')).toBeInTheDocument();
  expect(screen.getByText('剩余恢复码 8 个')).toBeInTheDocument();
  expect(screen.getByText('zs@example.edu')).toBeInTheDocument();
  expect(screen.getByText('2021001（张三）')).toBeInTheDocument();
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /重置两步验证/ })));
  expect(sent(identityApi.adminResetTwoFactor)).toEqual([]);
  await confirm();
  expect(call).toHaveBeenCalledWith(identityApi.adminResetTwoFactor, { params: { id: 4 } }, { skipErrorHandler: true });
  expect(await screen.findByText('未开启')).toBeInTheDocument();
});

it('turns the password off and back, links and unlinks identities, and shows a refusal', async () => {
  answer(identityApi.adminSetPasswordLogin, { success: true, data: { ...security, passwordLogin: false } });
  fail(identityApi.adminLinkIdentity, {
    response: { status: 409, data: { success: false, errorMessage: '这个统一身份已关联到其他账号' } },
  });
  answer(identityApi.adminUnlinkIdentity, { success: true, data: { ...security, identities: [] } });
  renderAt('/user/admin/editUser?uid=4', <SignInCard uid={4} />);
  {
    const target = await screen.findByRole('button', { name: /停用密码登录/ });
    await act(async () => fireEvent.click(target));
  }
  await confirm();
  expect(call).toHaveBeenCalledWith(
    identityApi.adminSetPasswordLogin,
    { params: { id: 4 }, body: { enabled: false } },
    { skipErrorHandler: true },
  );
  expect(await screen.findByText('已停用')).toBeInTheDocument();

  fireEvent.change(screen.getByLabelText('统一身份账号'), { target: { value: ' 2021002 ' } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /^关\s?联$/ })));
  expect(call).toHaveBeenCalledWith(
    identityApi.adminLinkIdentity,
    { params: { id: 4 }, body: { provider: 'cas', subject: '2021002' } },
    { skipErrorHandler: true },
  );
  expect(await screen.findByText('这个统一身份已关联到其他账号')).toBeInTheDocument();

  await act(async () => fireEvent.click(screen.getByRole('button', { name: /^解\s?除$/ })));
  await confirm();
  expect(call).toHaveBeenCalledWith(
    identityApi.adminUnlinkIdentity,
    { params: { id: 4, identityId: 3 } },
    { skipErrorHandler: true },
  );
  expect(await screen.findByText('未关联统一身份')).toBeInTheDocument();
});

it('cannot turn the password off for a user without an identity', async () => {
  answer(identityApi.adminUserSecurity, { success: true, data: { ...security, identities: [] } });
  renderAt('/user/admin/editUser?uid=4', <SignInCard uid={4} />);
  expect(await screen.findByRole('button', { name: /停用密码登录/ })).toBeDisabled();
});
