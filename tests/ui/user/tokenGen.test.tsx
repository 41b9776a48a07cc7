import { useModel } from '@@/plugin-model';
import { clearHandedOffToken, peekHandedOffToken } from '@/components/tokenHandoff';
import TokenGenPage, { scopesFromSearch } from '@/pages/user/tokenGen';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const alice = { uid: 2, username: 'alice', nickname: null, avatar: null, roles: [] };
const FULL = 'pt_AbC12345_secretpartthatisshownonce';
const created = {
  id: 7,
  name: '笔记本脚本',
  prefix: 'pt_AbC12345',
  scopes: ['ocs:query' as const],
  createdAt: '2025-01-01T00:00:00.000Z',
  expiresAt: '2025-04-01T00:00:00.000Z',
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
  status: 'active' as const,
  token: FULL,
};

beforeEach(() => {
  jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: alice }, setInitialState: jest.fn() } as never);
});

// Role queries are slow under antd's CSS-in-JS in jsdom; labels and texts find the same controls.
async function submit(name: string) {
  fireEvent.change(await screen.findByLabelText('令牌名称'), { target: { value: name } });
  await act(async () => fireEvent.click(screen.getByText('生成令牌', { selector: 'button span' })));
}

describe('token generation', () => {
  it('reads preselected scopes from the query and drops unknown ones', () => {
    expect(scopesFromSearch('?scope=ocs:query')).toEqual(['ocs:query']);
    expect(scopesFromSearch('?scope=ocs:query,ums:send&scope=root')).toEqual(['ocs:query', 'ums:send']);
    expect(scopesFromSearch('')).toEqual([]);
  });

  it('shows the new token once, with a copy button and a warning; coming back shows the form again', async () => {
    answer(userApi.createToken, { success: true, data: created });
    const execCommand = jest.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    const first = renderAt('/user/tokenGen?scope=ocs:query', <TokenGenPage />, '/user/tokenGen');
    expect(await screen.findByLabelText('OCS 题库查询（ocs:query）')).toBeChecked();
    expect(screen.getByLabelText('UMS 消息推送（ums:send）')).not.toBeChecked();
    await submit(' 笔记本脚本 ');

    await waitFor(() => expect(sent(userApi.createToken)).not.toEqual([]));
    expect(call).toHaveBeenCalledWith(
      userApi.createToken,
      { body: { name: '笔记本脚本', scopes: ['ocs:query'], expiresInDays: 90 } },
      { skipErrorHandler: true },
    );
    expect(await screen.findByText(FULL)).toBeInTheDocument();
    expect(screen.getByText('该令牌只显示这一次，请立即复制保存')).toBeInTheDocument();
    const copy = screen.getByLabelText('复制');
    await act(async () => fireEvent.click(copy));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(screen.getByText('前往令牌管理').closest('a')).toHaveAttribute('href', '/user/tokenManage');
    first.unmount();
    renderAt('/user/tokenGen', <TokenGenPage />, '/user/tokenGen');
    expect(await screen.findByLabelText('令牌名称')).toHaveValue('');
    expect(screen.queryByText(FULL)).not.toBeInTheDocument();
    expect(screen.queryByTestId('copyable-secret')).not.toBeInTheDocument();
  });

  it('sends never-expiring tokens as null and needs at least one scope', async () => {
    answer(userApi.createToken, { success: true, data: { ...created, expiresAt: null } });
    renderAt('/user/tokenGen', <TokenGenPage />, '/user/tokenGen');
    await submit('x');
    expect(await screen.findByText('至少选择一个权限范围')).toBeInTheDocument();
    expect(sent(userApi.createToken)).toEqual([]);

    fireEvent.click(screen.getByLabelText('UMS 消息推送（ums:send）'));
    fireEvent.click(screen.getByLabelText('永不过期'));
    await submit('推送');
    await waitFor(() => expect(sent(userApi.createToken)).not.toEqual([]));
    expect(sent(userApi.createToken)[0]?.body).toEqual({ name: '推送', scopes: ['ums:send'], expiresInDays: null });
    expect(await screen.findByText('永不过期')).toBeInTheDocument();
  });

  it('hands an ocs:query token to /OCS/configGen in memory, not in the URL; other tokens are not offered', async () => {
    clearHandedOffToken();
    answer(userApi.createToken, { success: true, data: { ...created, scopes: ['ums:send'] } });
    const first = renderAt('/user/tokenGen?scope=ums:send', <TokenGenPage />, '/user/tokenGen');
    await submit('推送');
    expect(await screen.findByText(FULL)).toBeInTheDocument();
    expect(screen.queryByText('用此令牌生成配置')).not.toBeInTheDocument();
    first.unmount();

    answer(userApi.createToken, { success: true, data: created });
    renderAt('/user/tokenGen?scope=ocs:query', <TokenGenPage />, '/user/tokenGen');
    await submit('笔记本脚本');
    expect(await screen.findByText(FULL)).toBeInTheDocument();
    fireEvent.click(screen.getByText('用此令牌生成配置'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/configGen$/));
    expect(peekHandedOffToken()).toBe(FULL);
    clearHandedOffToken();
  });

  it('shows the 409 message (limit or duplicate name) and no token', async () => {
    fail(userApi.createToken, {
      response: {
        status: 409,
        data: {
          success: false,
          errorCode: 'TOKEN_LIMIT',
          errorMessage: '最多只能有 20 个有效令牌，请先撤销不用的令牌',
        },
      },
    });
    renderAt('/user/tokenGen?scope=ums:send', <TokenGenPage />, '/user/tokenGen');
    await submit('再来一个');
    expect(await screen.findByText('最多只能有 20 个有效令牌，请先撤销不用的令牌')).toBeInTheDocument();
    expect(screen.queryByTestId('copyable-secret')).not.toBeInTheDocument();
  });
});
