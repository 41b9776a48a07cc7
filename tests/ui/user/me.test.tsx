import { useModel } from '@@/plugin-model';
import PersonalCenterPage from '@/pages/user/me';
import { describeUserAgent } from '@/pages/user/me/components/userAgent';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const profile = {
  uid: 2,
  username: 'alice',
  nickname: '爱丽丝',
  avatar: null,
  roles: ['njit' as const],
  createdAt: '2024-12-31T16:00:00.000Z',
  lastLoginAt: null,
};
const session = (id: number, current: boolean, userAgent: string) => ({
  id,
  userAgent,
  ip: `10.0.0.${id}`,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastSeenAt: '2025-01-02T00:00:00.000Z',
  expiresAt: '2025-02-01T00:00:00.000Z',
  persistent: true,
  current,
});
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1';

let state: { currentUser: typeof profile | null };
const setInitialState = jest.fn((update: (s: typeof state) => typeof state) => {
  state = update(state);
});

beforeEach(() => {
  jest.clearAllMocks();
  localStorage.clear();
  state = { currentUser: profile };
  jest.mocked(useModel).mockImplementation(() => ({ initialState: state, setInitialState }) as never);
  answer(userApi.getProfile, { success: true, data: profile });
  answer(userApi.listSessions, { success: true, data: [session(1, true, CHROME), session(2, false, IPHONE)] });
});

const button = (text: RegExp | string) =>
  screen.getByText(text, { selector: 'button span' }).closest('button') as HTMLElement;

describe('personal center', () => {
  it('shows the profile and saves the nickname into the header too', async () => {
    answer(userApi.updateProfile, { success: true, data: { ...profile, nickname: '小爱' } });
    renderAt('/user/me', <PersonalCenterPage />);
    expect(await screen.findByText('alice')).toBeInTheDocument();
    expect(screen.getByText('2025-01-01 00:00')).toBeInTheDocument(); // 16:00 UTC = midnight in Shanghai
    expect(screen.getByText('从未登录')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('昵称'), { target: { value: ' 小爱 ' } });
    await act(async () => fireEvent.click(button(/^保\s?存$/)));
    expect(call).toHaveBeenCalledWith(userApi.updateProfile, { body: { nickname: '小爱' } });
    await waitFor(() => expect(state.currentUser?.nickname).toBe('小爱'));
    expect(JSON.parse(localStorage.getItem('initialState')!).nickname).toBe('小爱');
  });

  it('refuses a non-image avatar before uploading, uploads a PNG and updates the header avatar', async () => {
    answer(userApi.uploadAvatar, { success: true, data: { avatar: '/api/user/avatar/2?v=1' } });
    renderAt('/user/me', <PersonalCenterPage />);
    await screen.findByText('alice');
    // rc-upload replaces its <input> after every pick: look it up each time.
    const input = () => document.querySelector('input[type=file]') as HTMLInputElement;
    await act(async () =>
      fireEvent.change(input(), { target: { files: [new File(['hello'], 'a.txt', { type: 'text/plain' })] } }),
    );
    expect(await screen.findByText('只支持 PNG、JPEG 或 WebP 格式的图片')).toBeInTheDocument();
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    await act(async () => fireEvent.change(input(), { target: { files: [big] } }));
    expect(await screen.findByText('图片不能超过 2 MB')).toBeInTheDocument();
    expect(sent(userApi.uploadAvatar)).toEqual([]);

    const png = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    await act(async () => fireEvent.change(input(), { target: { files: [png] } }));
    await waitFor(() => expect(sent(userApi.uploadAvatar)).toHaveLength(1));
    expect(sent(userApi.uploadAvatar)[0]).toMatchObject({ name: 'me.png', type: 'image/png' });
    await waitFor(() => expect(state.currentUser?.avatar).toBe('/api/user/avatar/2?v=1'));
  });

  it('changes the password and says how many other sessions ended', async () => {
    answer(userApi.changePassword, { success: true, data: { endedSessions: 2, revokedTokens: 0 } });
    renderAt('/user/me', <PersonalCenterPage />);
    await screen.findByText('alice');
    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'old-password' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'new-password-1' } });
    await act(async () => fireEvent.click(button('修改密码')));
    expect(call).toHaveBeenCalledWith(
      userApi.changePassword,
      { body: { oldPassword: 'old-password', newPassword: 'new-password-1', revokeTokens: false } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('密码已修改，已退出其他 2 个会话')).toBeInTheDocument();
  });

  it('revokes every personal token with the password when asked, and says how many', async () => {
    answer(userApi.changePassword, { success: true, data: { endedSessions: 0, revokedTokens: 3 } });
    renderAt('/user/me', <PersonalCenterPage />);
    await screen.findByText('alice');
    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'old-password' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'new-password-1' } });
    fireEvent.click(screen.getByLabelText(/同时吊销我的全部个人令牌/));
    await act(async () => fireEvent.click(button('修改密码')));
    expect(call).toHaveBeenCalledWith(
      userApi.changePassword,
      { body: { oldPassword: 'old-password', newPassword: 'new-password-1', revokeTokens: true } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText('密码已修改，已吊销 3 个个人令牌')).toBeInTheDocument();
  });

  it('puts a wrong current password under its field', async () => {
    fail(userApi.changePassword, {
      response: {
        status: 400,
        data: {
          success: false,
          errorCode: 'WRONG_PASSWORD',
          errorMessage: '当前密码不正确',
          data: { oldPassword: ['当前密码不正确'] },
        },
      },
    });
    renderAt('/user/me', <PersonalCenterPage />);
    await screen.findByText('alice');
    fireEvent.change(screen.getByLabelText('当前密码'), { target: { value: 'nope-nope' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'new-password-1' } });
    fireEvent.change(screen.getByLabelText('确认新密码'), { target: { value: 'new-password-1' } });
    await act(async () => fireEvent.click(button('修改密码')));
    const field = screen.getByLabelText('当前密码').closest('.ant-form-item') as HTMLElement;
    expect(await within(field).findByText('当前密码不正确')).toBeInTheDocument();
  });

  it('lists sessions; only other sessions can be ended, after confirmation', async () => {
    answer(userApi.endSession, { success: true, data: { ended: 1 } });
    renderAt('/user/me', <PersonalCenterPage />);
    const current = (await screen.findByText('当前会话')).closest('tr') as HTMLElement;
    expect(within(current).getByText('Chrome · Windows')).toBeInTheDocument();
    expect(within(current).queryByText('结束会话')).not.toBeInTheDocument();
    const other = screen.getByText('10.0.0.2').closest('tr') as HTMLElement;
    expect(within(other).getByText('Safari · iOS')).toBeInTheDocument();
    fireEvent.click(within(other).getByText('结束会话'));
    expect(await screen.findByText('该设备会立即退出登录。')).toBeInTheDocument();
    expect(sent(userApi.endSession)).toEqual([]);
    await act(async () => fireEvent.click(button(/^结\s?束$/)));
    expect(call).toHaveBeenCalledWith(userApi.endSession, { params: { id: 2 } });
    await waitFor(() => expect(sent(userApi.listSessions)).toHaveLength(2));
  });

  it('makes the sessions table a named region the keyboard reaches, so a phone user can scroll it sideways', async () => {
    renderAt('/user/me', <PersonalCenterPage />);
    await screen.findByText('当前会话');
    const region = screen.getByRole('region', { name: '登录会话列表' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(region).getByText('当前会话')).toBeInTheDocument();
  });

  it('ends all other sessions at once after confirmation', async () => {
    answer(userApi.endOtherSessions, { success: true, data: { ended: 1 } });
    renderAt('/user/me', <PersonalCenterPage />);
    await screen.findByText('当前会话');
    fireEvent.click(button('退出其他所有会话'));
    await screen.findByText('除当前设备外，所有设备都会立即退出登录。');
    await act(async () => fireEvent.click(button('全部退出')));
    expect(sent(userApi.endOtherSessions)).toHaveLength(1);
    expect(await screen.findByText('已退出其他 1 个会话')).toBeInTheDocument();
  });
});

describe('user agent names', () => {
  it('names common browsers and systems', () => {
    expect(describeUserAgent(CHROME)).toBe('Chrome · Windows');
    expect(describeUserAgent(IPHONE)).toBe('Safari · iOS');
    expect(describeUserAgent(null)).toBe('未知设备');
  });
});
