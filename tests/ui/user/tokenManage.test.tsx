import { useModel } from '@@/plugin-model';
import TokenManagePage from '@/pages/user/tokenManage';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const base = {
  scopes: ['ocs:query' as const],
  createdAt: '2025-01-01T00:00:00.000Z',
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
};
const active = { ...base, id: 1, name: '脚本令牌', prefix: 'pt_Active01', expiresAt: null, status: 'active' as const };
const revoked = {
  ...base,
  id: 2,
  name: '旧令牌',
  prefix: 'pt_Revoke02',
  scopes: ['ums:send' as const],
  expiresAt: '2025-02-01T00:00:00.000Z',
  lastUsedAt: '2025-01-10T04:05:00.000Z',
  lastUsedIp: '10.0.0.8',
  revokedAt: '2025-01-11T00:00:00.000Z',
  status: 'revoked' as const,
};

beforeEach(() => {
  answer(userApi.listTokens, { success: true, data: [active, revoked], total: 2, current: 1, pageSize: 10 });
  jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: { uid: 2, username: 'bob' } } } as never);
});

function row(name: string) {
  return screen.getByText(name).closest('tr') as HTMLElement;
}

describe('token list', () => {
  it('asks the server for page 1 of 10 and shows every column a user needs', async () => {
    renderAt('/user/tokenManage', <TokenManagePage />);
    expect(await screen.findByText('脚本令牌')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(userApi.listTokens, {
      query: expect.objectContaining({ current: 1, pageSize: 10 }),
    });
    const a = row('脚本令牌');
    expect(within(a).getByText('pt_Active01…')).toBeInTheDocument();
    expect(within(a).getByText('OCS 题库查询')).toBeInTheDocument();
    expect(within(a).getByText('永不过期')).toBeInTheDocument();
    expect(within(a).getByText('从未使用')).toBeInTheDocument();
    expect(within(a).getByText('有效')).toBeInTheDocument();
    const r = row('旧令牌');
    // 04:05 UTC is 12:05 in Asia/Shanghai.
    expect(within(r).getByText('2025-01-10 12:05')).toBeInTheDocument();
    expect(within(r).getByText('（10.0.0.8）')).toBeInTheDocument();
    expect(within(r).getByText('已撤销')).toBeInTheDocument();
    expect(within(r).queryByText('撤销')).not.toBeInTheDocument();
  });

  it('revokes only after confirmation: cancel leaves the token alone', async () => {
    renderAt('/user/tokenManage', <TokenManagePage />);
    await screen.findByText('脚本令牌');
    fireEvent.click(within(row('脚本令牌')).getByText('撤销'));
    expect(await screen.findByText(/撤销立即生效/)).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText(/^取\s?消$/, { selector: 'button span' })));
    expect(sent(userApi.revokeToken)).toEqual([]);
  });

  it('revokes after confirmation and reloads the list', async () => {
    answer(userApi.revokeToken, {
      success: true,
      data: { ...active, status: 'revoked', revokedAt: '2025-01-12T00:00:00.000Z' },
    });
    renderAt('/user/tokenManage', <TokenManagePage />);
    await screen.findByText('脚本令牌');
    fireEvent.click(within(row('脚本令牌')).getByText('撤销'));
    const tip = (await screen.findByText(/撤销立即生效/)).closest('.ant-popover') as HTMLElement;
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(within(tip).getByText(/^撤\s?销$/, { selector: 'button span' })));
    expect(call).toHaveBeenCalledWith(userApi.revokeToken, { params: { id: 1 } });
    await waitFor(() => expect(sent(userApi.listTokens)).not.toEqual([]));
  });

  it('filters by status through the search form', async () => {
    renderAt('/user/tokenManage', <TokenManagePage />);
    await screen.findByText('脚本令牌');
    jest.mocked(call).mockClear();
    const select = document.querySelector('.ant-pro-table-search .ant-select-selector') as HTMLElement;
    fireEvent.mouseDown(select);
    fireEvent.click(await screen.findByText('已过期', { selector: '.ant-select-item-option-content' }));
    await act(async () => fireEvent.click(screen.getByText('查 询', { selector: 'button span' })));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(userApi.listTokens, {
        query: expect.objectContaining({ status: 'expired', current: 1 }),
      }),
    );
  });
});
