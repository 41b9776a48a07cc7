import { useModel } from '@@/plugin-model';
import UserManagePage from '@/pages/user/admin/userManage';
import { toUserListQuery } from '@/pages/user/admin/userManage/query';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, sent } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';

jest.mock('@/services/call');

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const user = (uid: number, username: string, extra: object = {}) => ({
  uid,
  username,
  nickname: null,
  avatar: null,
  roles: [],
  status: 'active' as const,
  createdAt: '2025-01-01T00:00:00.000Z',
  lastLoginAt: null,
  activeTokens: 0,
  recentLoginFailures: 0,
  ...extra,
});
const admin = user(1, 'admin', { roles: ['admin'], nickname: '管理员' });
const alice = user(2, 'alice', { roles: ['njit'], lastLoginAt: '2025-03-01T16:30:00.000Z', activeTokens: 3 });

beforeEach(() => {
  answer(userApi.adminListUsers, { success: true, data: [admin, alice], total: 2, current: 1, pageSize: 10 });
  jest
    .mocked(useModel)
    .mockReturnValue({ initialState: { currentUser: { uid: 1, username: 'admin', roles: ['admin'] } } } as never);
});

function formItem(label: string) {
  const el = screen.getByText(label, { selector: '.ant-pro-table-search label, .ant-pro-table-search label *' });
  return el.closest('.ant-form-item') as HTMLElement;
}

async function pick(label: string, option: string) {
  fireEvent.mouseDown(formItem(label).querySelector('.ant-select-selector') as HTMLElement);
  const options = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
  fireEvent.click(options[options.length - 1]);
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;
const lastQuery = () => sent(userApi.adminListUsers).at(-1)?.query;

describe('sorter mapping', () => {
  it('maps the ProTable sorter to sortBy/order and drops empty filters', () => {
    expect(toUserListQuery({ current: 2, pageSize: 10, keyword: '  ' }, {})).toEqual({
      current: 2,
      pageSize: 10,
      sortBy: 'createdAt',
      order: 'descend',
    });
    expect(
      toUserListQuery({ keyword: ' al ', role: 'njit' }, { lastLoginAt: 'ascend', createdAt: null }),
    ).toMatchObject({
      keyword: 'al',
      role: 'njit',
      sortBy: 'lastLoginAt',
      order: 'ascend',
    });
  });
});

describe('user table', () => {
  it('loads page 1 of 10 sorted by creation, newest first, and shows each user', async () => {
    renderAt('/user/admin/userManage', <UserManagePage />);
    expect(await screen.findByText('alice')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(userApi.adminListUsers, {
      query: { current: 1, pageSize: 10, sortBy: 'createdAt', order: 'descend' },
    });
    expect(within(row('alice')).getByText('NJIT')).toBeInTheDocument();
    expect(within(row('alice')).getByText('2025-03-02 00:30')).toBeInTheDocument();
    expect(within(row('alice')).getByText('编辑').closest('a')).toHaveAttribute('href', '/user/admin/editUser?uid=2');
    expect(screen.getByText('新建用户').closest('a')).toHaveAttribute('href', '/user/admin/createUser');
  });

  it('shows username and nickname apart, never a bracketed nickname inside brackets', async () => {
    const teacher = user(3, 'teacher2', { nickname: '王老师（已改）' });
    answer(userApi.adminListUsers, { success: true, data: [teacher], total: 1, current: 1, pageSize: 10 });
    renderAt('/user/admin/userManage', <UserManagePage />);
    const name = await screen.findByText('teacher2');
    const cell = name.closest('td') as HTMLElement;
    expect(within(cell).getByText('王老师（已改）')).not.toContainElement(name);
    expect(cell).not.toHaveTextContent('（王老师（已改））');
    expect(cell.textContent).not.toMatch(/（[^）]*（/); // no bracket opened inside another
  });

  it('sends the keyword, role and status filters and the sort column to the server', async () => {
    renderAt('/user/admin/userManage', <UserManagePage />);
    await screen.findByText('alice');
    fireEvent.change(screen.getByPlaceholderText('用户名或昵称'), { target: { value: ' ali ' } });
    await pick('角色', 'NJIT');
    await pick('状态', '停用');
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(screen.getByText('查 询', { selector: 'button span' })));
    await waitFor(() => expect(sent(userApi.adminListUsers)).not.toEqual([]));
    expect(lastQuery()).toEqual({
      current: 1,
      pageSize: 10,
      keyword: 'ali',
      role: 'njit',
      status: 'disabled',
      sortBy: 'createdAt',
      order: 'descend',
    });

    jest.mocked(call).mockClear();
    await act(async () =>
      fireEvent.click(screen.getAllByText('最后登录', { selector: 'th .ant-table-column-title' })[0]),
    );
    await waitFor(() => expect(sent(userApi.adminListUsers)).not.toEqual([]));
    expect(lastQuery()).toMatchObject({
      keyword: 'ali',
      role: 'njit',
      status: 'disabled',
      sortBy: 'lastLoginAt',
      order: 'ascend',
    });
  });

  it('deletes only after the exact username is typed', async () => {
    answer(userApi.adminDeleteUser, { success: true });
    renderAt('/user/admin/userManage', <UserManagePage />);
    await screen.findByText('alice');
    fireEvent.click(within(row('alice')).getByText('删除', { selector: 'button span' }));
    const dialog = (await screen.findByText(/令牌和登录会话会一并删除/)).closest('.ant-modal') as HTMLElement;
    expect(within(dialog).getByText(/保留，但改为匿名/)).toBeInTheDocument();
    const ok = within(dialog).getByText('永久删除').closest('button') as HTMLButtonElement;
    expect(ok).toBeDisabled();
    const input = within(dialog).getByLabelText('确认用户名');
    fireEvent.change(input, { target: { value: 'alic' } });
    expect(ok).toBeDisabled();
    fireEvent.change(input, { target: { value: 'Alice' } });
    expect(ok).toBeDisabled();
    fireEvent.change(input, { target: { value: 'alice' } });
    expect(ok).toBeEnabled();
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(ok));
    expect(call).toHaveBeenCalledWith(
      userApi.adminDeleteUser,
      { params: { id: 2 }, body: { confirm: 'alice' } },
      { skipErrorHandler: true },
    );
    await waitFor(() => expect(sent(userApi.adminListUsers)).not.toEqual([]));
  });

  it('shows the server refusal (last admin) inside the dialog', async () => {
    fail(userApi.adminDeleteUser, {
      response: {
        status: 409,
        data: { success: false, errorCode: 'LAST_ADMIN', errorMessage: '这是最后一个有效的管理员，不能删除' },
      },
    });
    renderAt('/user/admin/userManage', <UserManagePage />);
    await screen.findByText('alice');
    fireEvent.click(within(row('alice')).getByText('删除', { selector: 'button span' }));
    const dialog = (await screen.findByText(/令牌和登录会话会一并删除/)).closest('.ant-modal') as HTMLElement;
    fireEvent.change(within(dialog).getByLabelText('确认用户名'), { target: { value: 'alice' } });
    await act(async () => fireEvent.click(within(dialog).getByText('永久删除')));
    expect(await within(dialog).findByText('这是最后一个有效的管理员，不能删除')).toBeInTheDocument();
  });

  it('does not offer deleting yourself', async () => {
    renderAt('/user/admin/userManage', <UserManagePage />);
    await screen.findByText('alice');
    // The row is found by username: the nickname 管理员 now shows bare, like the role tag 管理员.
    expect(within(row('admin')).getByText('删除', { selector: 'button span' }).closest('button')).toBeDisabled();
  });
});

describe('audit log', () => {
  const entry = {
    id: 5,
    actorId: 1,
    actorName: 'admin',
    action: 'user.update',
    targetType: 'user',
    targetId: '2',
    targetName: 'alice',
    before: { roles: ['njit'], status: 'active' },
    after: { roles: ['admin', 'njit'], status: 'disabled' },
    ip: '10.1.2.3',
    createdAt: '2025-05-01T02:00:00.000Z',
  };

  it('opens filtered to a user from the row and shows the before/after diff', async () => {
    answer(userApi.adminAudit, { success: true, data: [entry], total: 1, current: 1, pageSize: 10 });
    renderAt('/user/admin/userManage', <UserManagePage />);
    await screen.findByText('alice');
    await act(async () => fireEvent.click(within(row('alice')).getByText('日志')));
    expect(await screen.findByText('修改用户')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(userApi.adminAudit, {
      query: expect.objectContaining({ current: 1, pageSize: 10, targetId: '2' }),
    });
    expect(screen.getByText('NJIT → 管理员、NJIT')).toBeInTheDocument();
    expect(screen.getByText('正常 → 停用')).toBeInTheDocument();
    expect(screen.getByText('10.1.2.3')).toBeInTheDocument();
    expect(screen.getByText('2025-05-01 10:00')).toBeInTheDocument();
  });
});
