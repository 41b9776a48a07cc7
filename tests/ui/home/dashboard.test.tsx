import { useAccess } from '@@/plugin-access';
import { useModel } from '@@/plugin-model';
import * as notificationsApi from '@/contract/api/notifications';
import * as ocsApi from '@/contract/api/ocs';
import * as umsApi from '@/contract/api/ums';
import { INITIAL_STATE_KEY } from '@/initialState';
import { recentPaths, rememberVisit } from '@/components/recentPages';
import HomePage from '@/pages/home';
import { openablePage } from '@/pages/home/pages';
// Loaded up front: the page loads it lazily, and a first load inside a test would race findBy's wait.
import '@/pages/home/components/Dashboard';
import { fetchHealth } from '@/services/probes';
import { call } from '@/services/call';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { answer, fail } from '../api';
import { renderAt } from '../helpers';

// The first render of the dashboard's antd parts takes over a second on a loaded machine.
configure({ asyncUtilTimeout: 10_000 });

jest.mock('@/services/probes', () => ({ fetchHealth: jest.fn(), fetchCurrentUser: jest.fn() }));
jest.mock('@/services/call');
jest.mock('@@/plugin-access', () => ({ useAccess: jest.fn() }));
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const member = { isLoggedIn: true, isAdmin: false, isNjit: false, isNjitAdmin: false };
const admin = { isLoggedIn: true, isAdmin: true, isNjit: false, isNjitAdmin: false };
const bob = { uid: 2, username: 'bob', nickname: null, avatar: null, roles: [] as string[] };
const root = { uid: 1, username: 'root', nickname: null, avatar: null, roles: ['admin'] };

const ocsSummary = { balance: 42, todayQueries: 7, admin: null };
const umsSummary = {
  unread: 3,
  failed: 1,
  latest: [
    { id: 9, title: '构建完成', status: 'delivered' as const, createdAt: '2026-12-05T02:00:00.000Z', read: false },
    { id: 8, title: '部署失败', status: 'failed' as const, createdAt: '2026-12-04T02:00:00.000Z', read: true },
  ],
  admin: null,
};
const notice = {
  id: 5,
  kind: 'ums.failed' as never,
  title: '消息发送失败',
  body: '',
  link: '/UMS/queryMessage',
  createdAt: '2026-12-05T01:00:00.000Z',
  readAt: null,
};

function signIn(access: typeof member, user: typeof bob) {
  jest.mocked(useAccess).mockReturnValue(access);
  jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: user } } as never);
  localStorage.setItem(INITIAL_STATE_KEY, JSON.stringify(user));
}

const card = (title: string) =>
  screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;

beforeEach(() => {
  localStorage.clear();
  jest.mocked(fetchHealth).mockResolvedValue({
    success: true,
    data: { status: 'ok', database: 'ok', version: 't', uptimeSeconds: 1 },
  });
  answer(ocsApi.homeSummary, { success: true, data: ocsSummary });
  answer(umsApi.homeSummary, { success: true, data: umsSummary });
  answer(notificationsApi.listNotifications, { success: true, data: [notice], total: 4, current: 1, pageSize: 3 });
});

test('a signed-in user sees their balance, today’s queries, unread messages and notifications, and quick actions', async () => {
  signIn(member, bob);
  renderAt('/home', <HomePage />, '/home');
  expect(await screen.findByText('我的工作台')).toBeInTheDocument();
  const ocs = card('我的 OCS');
  expect(await within(ocs).findByText('42')).toBeInTheDocument();
  expect(within(ocs).getByText('积分余额')).toBeInTheDocument();
  expect(within(ocs).getByText('7')).toBeInTheDocument();
  const messages = card('我的消息');
  expect(within(messages).getByText('3')).toBeInTheDocument();
  expect(within(messages).getAllByRole('listitem')).toHaveLength(2);
  expect(within(messages).getByText('部署失败')).toBeInTheDocument();
  expect(within(messages).getByLabelText('未读')).toBeInTheDocument();
  const notices = card('未读通知');
  expect(within(notices).getByText('4')).toBeInTheDocument();
  expect(within(notices).getByRole('link', { name: '消息发送失败' })).toHaveAttribute('href', '/UMS/queryMessage');
  // Only the caller's unread notifications, three at most.
  expect(call).toHaveBeenCalledWith(
    notificationsApi.listNotifications,
    { query: { read: 'unread', current: 1, pageSize: 3 } },
    { skipErrorHandler: true },
  );
  // Quick actions: the tasks open to a plain user, none of an administrator's or the njit role's.
  const actions = within(card('快捷操作'));
  expect(actions.getByRole('button', { name: '在线提问' })).toBeInTheDocument();
  expect(actions.getByRole('button', { name: '创建消息' })).toBeInTheDocument();
  expect(actions.queryByRole('button', { name: '用户列表' })).not.toBeInTheDocument();
  expect(actions.queryByRole('button', { name: '学生信息查询' })).not.toBeInTheDocument();
  fireEvent.click(actions.getByRole('button', { name: '在线提问' }));
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/askQuestion$/);
});

test('a plain user gets no portal-state cards; an administrator gets them, each figure leading to its page', async () => {
  signIn(member, bob);
  const { unmount } = renderAt('/home', <HomePage />, '/home');
  await screen.findByText('42');
  expect(screen.queryByText('OCS 待处理（全站）')).not.toBeInTheDocument();
  expect(screen.queryByText('消息投递（全站）')).not.toBeInTheDocument();
  unmount();

  signIn(admin, root);
  answer(ocsApi.homeSummary, {
    success: true,
    data: { ...ocsSummary, admin: { reviewsWaiting: 5, missesOpen: 11, importsRunning: 1, importsFailed: 2 } },
  });
  answer(umsApi.homeSummary, {
    success: true,
    data: { ...umsSummary, admin: { waiting: 13, retrying: 4, failedLastDay: 6 } },
  });
  renderAt('/home', <HomePage />, '/home');
  const ocs = await screen.findByText('OCS 待处理（全站）');
  const review = within(ocs.closest('.ant-card') as HTMLElement);
  expect(await review.findByRole('link', { name: '待审核纠错：5' })).toHaveAttribute('href', '/OCS/OCSAdmin/reviews');
  expect(review.getByRole('link', { name: '未收录题目：11' })).toHaveAttribute('href', '/OCS/OCSAdmin/misses');
  expect(review.getByRole('link', { name: '导入失败：2' })).toHaveAttribute('href', '/OCS/OCSAdmin/bank');
  const outbox = within(card('消息投递（全站）'));
  expect(outbox.getByText('13')).toBeInTheDocument();
  expect(outbox.getByText('等待重试')).toBeInTheDocument();
  expect(outbox.getByText('6')).toBeInTheDocument();
  expect(within(card('快捷操作')).getByRole('button', { name: '用户列表' })).toBeInTheDocument();
});

test('a failing summary shows its error on its own cards, the others stay, and 重试 loads it', async () => {
  signIn(admin, root);
  fail(ocsApi.homeSummary, new Error('网络错误'));
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => {}); // ahooks logs the failure
  answer(umsApi.homeSummary, {
    success: true,
    data: { ...umsSummary, admin: { waiting: 1, retrying: 0, failedLastDay: 0 } },
  });
  renderAt('/home', <HomePage />, '/home');
  const ocs = within(await screen.findByText('我的 OCS').then((t) => t.closest('.ant-card') as HTMLElement));
  expect(await ocs.findByText(/加载失败/)).toBeInTheDocument();
  expect(within(card('OCS 待处理（全站）')).getByText(/加载失败/)).toBeInTheDocument();
  // The other module's cards and the module cards below are there.
  expect(within(card('我的消息')).getByText('3')).toBeInTheDocument();
  expect(screen.getByText('全部模块')).toBeInTheDocument();
  expect(screen.getByText('积分钱包、账单、每日领取与兑换码')).toBeInTheDocument();

  answer(ocsApi.homeSummary, { success: true, data: { ...ocsSummary, admin: null } });
  fireEvent.click(ocs.getByRole('button', { name: /重\s?试/ }));
  expect(await ocs.findByText('42')).toBeInTheDocument();
  quiet.mockRestore();
});

test('loading shows skeletons; empty inbox, notifications and history say so', async () => {
  signIn(member, bob);
  answer(umsApi.homeSummary, { success: true, data: { unread: 0, failed: 0, latest: [], admin: null } });
  answer(notificationsApi.listNotifications, { success: true, data: [], total: 0, current: 1, pageSize: 3 });
  renderAt('/home', <HomePage />, '/home');
  expect(await screen.findByText('还没有消息')).toBeInTheDocument();
  expect(screen.getByText('没有未读通知')).toBeInTheDocument();
  expect(screen.getByText('还没有访问记录，打开的页面会列在这里')).toBeInTheDocument();
});

test('a card whose summary has not answered yet shows a skeleton', async () => {
  signIn(member, bob);
  answer(ocsApi.homeSummary, () => new Promise(() => undefined));
  renderAt('/home', <HomePage />, '/home');
  await screen.findByText('3');
  expect(card('我的 OCS').querySelector('.ant-skeleton')).not.toBeNull();
  expect(card('我的消息').querySelector('.ant-skeleton')).toBeNull();
});

test('a visitor gets no dashboard and no summary calls', async () => {
  jest.mocked(useAccess).mockReturnValue({ isLoggedIn: false, isAdmin: false, isNjit: false, isNjitAdmin: false });
  jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: null } } as never);
  renderAt('/home', <HomePage />, '/home');
  expect(await screen.findByText('服务正常')).toBeInTheDocument();
  expect(screen.queryByText('我的工作台')).not.toBeInTheDocument();
  expect(call).not.toHaveBeenCalled();
});

describe('recent pages', () => {
  test('kept per signed-in user, newest first, once each, a dozen at most; a visitor’s and /home are not', () => {
    rememberVisit('/OCS/bill'); // nobody signed in
    expect(localStorage.length).toBe(0);
    localStorage.setItem(INITIAL_STATE_KEY, JSON.stringify(bob));
    rememberVisit('/OCS/bill');
    rememberVisit('/home');
    rememberVisit('/UMS/self');
    rememberVisit('/OCS/bill');
    expect(recentPaths(2)).toEqual(['/OCS/bill', '/UMS/self']);
    expect(recentPaths(1)).toEqual([]);
    for (let i = 0; i < 20; i++) rememberVisit(`/x/${i}`);
    expect(recentPaths(2)).toHaveLength(12);
    expect(recentPaths(2)[0]).toBe('/x/19');
    localStorage.setItem('recentPages:2', '{not json');
    expect(recentPaths(2)).toEqual([]);
  });

  test('the home page lists only those the user may still open, eight at most, named from the route table', async () => {
    signIn(member, bob);
    localStorage.setItem(
      'recentPages:2',
      JSON.stringify([
        '/user/admin/userManage', // an administrator's page: not for bob (any more)
        '/OCS/overview',
        '/user/login', // outside the shell
        '/user/admin/editUser', // hidden from menus: needs its ?uid=
        '/UMS/overview',
        '/njit/queryStuInfo', // needs the njit role
        '/OCS/bill',
        '/UMS/self',
        '/user/me',
        '/user/security',
        '/OCS/askQuestion',
        '/UMS/templates',
        '/UMS/createMessage', // the ninth that may be opened: past the eight shown
      ]),
    );
    renderAt('/home', <HomePage />, '/home');
    await screen.findByText('最近访问');
    const list = screen.getByRole('navigation', { name: '最近访问的页面' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['概览', '/OCS/overview'],
      ['概览', '/UMS/overview'],
      ['账单', '/OCS/bill'],
      ['我的推送', '/UMS/self'],
      ['个人中心', '/user/me'],
      ['账号安全', '/user/security'],
      ['在线提问', '/OCS/askQuestion'],
      ['消息模板', '/UMS/templates'],
    ]);
    // Which module's 概览: the module's name beside it.
    expect(within(list).getAllByText('OCS 网课助手')).toHaveLength(3);
    expect(within(list).getAllByText('UMS 消息推送')).toHaveLength(3);
    expect(openablePage('/no/such/page', member)).toBeNull();
    expect(openablePage('/user/register', member)).toBeNull();
    expect(openablePage('/home', member)).toBeNull();
    expect(openablePage('/njit/queryStuInfo', { ...member, isNjit: true, isNjitAdmin: false })).toEqual({
      path: '/njit/queryStuInfo',
      name: '学生信息查询',
      module: 'NJIT 学生信息',
    });
  });
});
