import SignInCard from '@/pages/user/admin/editUser/components/SignInCard';
import {
  adminLinkIdentity,
  adminResetTwoFactor,
  adminSetPasswordLogin,
  adminUnlinkIdentity,
  fetchUserSecurity,
} from '@/services/identity';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../../helpers';

jest.mock('@/services/identity', () => ({
  fetchUserSecurity: jest.fn(),
  adminResetTwoFactor: jest.fn(),
  adminSetPasswordLogin: jest.fn(),
  adminLinkIdentity: jest.fn(),
  adminUnlinkIdentity: jest.fn(),
}));

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
  jest.mocked(fetchUserSecurity).mockResolvedValue({ success: true, data: security });
});

const confirm = async () => {
  const ok = await screen.findAllByRole('button', { name: /^(重\s?置|确\s?定|解\s?除)$/ });
  await act(async () => fireEvent.click(ok[ok.length - 1]));
};

it('shows the second factor, the password and the identities; resets the second factor after a confirmation', async () => {
  jest.mocked(adminResetTwoFactor).mockResolvedValue({
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
  expect(adminResetTwoFactor).not.toHaveBeenCalled();
  await confirm();
  expect(adminResetTwoFactor).toHaveBeenCalledWith(4, { skipErrorHandler: true });
  expect(await screen.findByText('未开启')).toBeInTheDocument();
});

it('turns the password off and back, links and unlinks identities, and shows a refusal', async () => {
  jest.mocked(adminSetPasswordLogin).mockResolvedValue({ success: true, data: { ...security, passwordLogin: false } });
  jest.mocked(adminLinkIdentity).mockRejectedValue({
    response: { status: 409, data: { success: false, errorMessage: '这个统一身份已关联到其他账号' } },
  });
  jest.mocked(adminUnlinkIdentity).mockResolvedValue({ success: true, data: { ...security, identities: [] } });
  renderAt('/user/admin/editUser?uid=4', <SignInCard uid={4} />);
  {
    const target = await screen.findByRole('button', { name: /停用密码登录/ });
    await act(async () => fireEvent.click(target));
  }
  await confirm();
  expect(adminSetPasswordLogin).toHaveBeenCalledWith(4, false, { skipErrorHandler: true });
  expect(await screen.findByText('已停用')).toBeInTheDocument();

  fireEvent.change(screen.getByLabelText('统一身份账号'), { target: { value: ' 2021002 ' } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: /^关\s?联$/ })));
  expect(adminLinkIdentity).toHaveBeenCalledWith(
    4,
    { provider: 'cas', subject: '2021002' },
    { skipErrorHandler: true },
  );
  expect(await screen.findByText('这个统一身份已关联到其他账号')).toBeInTheDocument();

  await act(async () => fireEvent.click(screen.getByRole('button', { name: /^解\s?除$/ })));
  await confirm();
  expect(adminUnlinkIdentity).toHaveBeenCalledWith(4, 3, { skipErrorHandler: true });
  expect(await screen.findByText('未关联统一身份')).toBeInTheDocument();
});

it('cannot turn the password off for a user without an identity', async () => {
  jest.mocked(fetchUserSecurity).mockResolvedValue({ success: true, data: { ...security, identities: [] } });
  renderAt('/user/admin/editUser?uid=4', <SignInCard uid={4} />);
  expect(await screen.findByRole('button', { name: /停用密码登录/ })).toBeDisabled();
});
