import { useAccess } from '@@/plugin-access';
import { useModel } from '@@/plugin-model';
import HomePage from '@/pages/home';
import { entryState } from '@/pages/home/modules';
import { fetchHealth } from '@/services/probes';
import { fireEvent, screen, within } from '@testing-library/react';
import '../api';
import { renderAt } from '../helpers';

jest.mock('@/services/probes', () => ({ fetchHealth: jest.fn(), fetchCurrentUser: jest.fn() }));
jest.mock('@/services/call');
jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const anonymous = { isLoggedIn: false, isAdmin: false, isNjit: false, isNjitAdmin: false };
const member = { isLoggedIn: true, isAdmin: false, isNjit: false, isNjitAdmin: false };
const njit = { isLoggedIn: true, isAdmin: false, isNjit: true, isNjitAdmin: false };

describe('entry state per module (flags from config/routes.ts)', () => {
  it.each([
    ['/user', anonymous, 'login'],
    ['/user', member, 'enter'],
    ['/OCS', anonymous, 'login'],
    ['/OCS', member, 'enter'],
    ['/UMS', anonymous, 'login'],
    ['/njit', anonymous, 'login'],
    ['/njit', member, 'forbidden'],
    ['/njit', njit, 'enter'],
  ])('%s for %j is %s', (group, access, expected) => {
    expect(entryState(group, access)).toBe(expected);
  });
});

describe('home page', () => {
  beforeEach(() => {
    jest.mocked(fetchHealth).mockResolvedValue({
      success: true,
      data: { status: 'ok', database: 'ok', version: 't', uptimeSeconds: 1 },
    });
  });

  function card(title: string) {
    return screen.getByText(title).closest('.ant-card') as HTMLElement;
  }

  it('shows the four modules and what a visitor must do to enter', async () => {
    jest.mocked(useAccess).mockReturnValue(anonymous);
    jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: null } } as never);
    renderAt('/home', <HomePage />, '/home');
    expect(await screen.findByText('服务正常')).toBeInTheDocument();
    expect(within(card('用户中心')).getByRole('button', { name: '需要登录' })).toBeInTheDocument();
    expect(within(card('OCS 网课助手')).getByRole('button', { name: '需要登录' })).toBeInTheDocument();
    expect(within(card('UMS 消息推送')).getByRole('button', { name: '需要登录' })).toBeInTheDocument();
    expect(within(card('NJIT 学生信息')).getByRole('button', { name: '需要登录' })).toBeInTheDocument();
    expect(within(card('OCS 网课助手')).getByText('积分钱包、账单、每日领取与兑换码')).toBeInTheDocument();
    // One control per card: a button that navigates, not a button inside a link.
    expect(within(card('OCS 网课助手')).queryByRole('link')).not.toBeInTheDocument();
    fireEvent.click(within(card('OCS 网课助手')).getByRole('button', { name: '需要登录' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/user/login?redirect=%2FOCS');
  });

  it('tells a logged-in user without the njit role that NJIT is closed to them', async () => {
    jest.mocked(useAccess).mockReturnValue(member);
    jest.mocked(useModel).mockReturnValue({
      initialState: { currentUser: { uid: 2, username: 'bob', nickname: null, avatar: null, roles: [] } },
    } as never);
    renderAt('/home', <HomePage />, '/home');
    expect(await screen.findByText('欢迎，bob')).toBeInTheDocument();
    expect(within(card('NJIT 学生信息')).getByText(/无权限/)).toBeInTheDocument();
    expect(within(card('NJIT 学生信息')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(card('NJIT 学生信息')).getByText(/请联系管理员/)).toBeInTheDocument();
    fireEvent.click(within(card('OCS 网课助手')).getByRole('button', { name: /进\s?入/ }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS$/);
  });

  it('offers an administrator without the njit role to open NJIT for themself, not to ask an administrator', async () => {
    jest.mocked(useAccess).mockReturnValue({ isLoggedIn: true, isAdmin: true, isNjit: false, isNjitAdmin: false });
    jest.mocked(useModel).mockReturnValue({
      initialState: { currentUser: { uid: 1, username: 'root', nickname: null, avatar: null, roles: ['admin'] } },
      setInitialState: jest.fn(),
    } as never);
    renderAt('/home', <HomePage />, '/home');
    await screen.findByText('欢迎，root');
    const njit = card('NJIT 学生信息');
    expect(within(njit).getByRole('button', { name: '为自己开通' })).toBeInTheDocument();
    expect(njit).toHaveTextContent('你是管理员，可以为自己开通（会记入管理员审计日志）。');
    expect(njit).not.toHaveTextContent('请联系管理员');
  });

  it('shows a closed module’s title in full: a short 无权限 in the header, the reason in the body', async () => {
    jest.mocked(useAccess).mockReturnValue(member);
    jest.mocked(useModel).mockReturnValue({
      initialState: { currentUser: { uid: 2, username: 'bob', nickname: null, avatar: null, roles: [] } },
    } as never);
    renderAt('/home', <HomePage />, '/home');
    await screen.findByText('欢迎，bob');
    const njit = card('NJIT 学生信息');
    const head = njit.querySelector('.ant-card-head') as HTMLElement;
    // The header's extra takes room from the title: only the short tag may sit there.
    expect(within(head).getByText('无权限')).toBeInTheDocument();
    expect(head).not.toHaveTextContent('联系管理员');
    expect(njit.querySelector('.ant-card-body')).toHaveTextContent('需要相应角色才能进入，请联系管理员。');
    // Every title wraps rather than being cut to "NJ…".
    for (const title of ['用户中心', 'OCS 网课助手', 'UMS 消息推送', 'NJIT 学生信息']) {
      const el = card(title).querySelector('.ant-card-head-title') as HTMLElement;
      expect(el).toHaveTextContent(title);
      expect(el).toHaveStyle({ whiteSpace: 'normal', overflow: 'visible' });
    }
  });

  it('reports a server that is down', async () => {
    jest.mocked(useAccess).mockReturnValue(anonymous);
    jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: null } } as never);
    jest.mocked(fetchHealth).mockRejectedValue(new Error('503 Service Unavailable'));
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {}); // ahooks logs the failure
    renderAt('/home', <HomePage />, '/home');
    expect(await screen.findByText('服务异常')).toBeInTheDocument();
    spy.mockRestore();
  });
});
