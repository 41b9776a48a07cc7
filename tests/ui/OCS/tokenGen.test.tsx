import ConfigGenPage from '@/pages/OCS/configGen';
import OcsTokenGenPage from '@/pages/OCS/tokenGen';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import * as ocsApi from '@/contract/api/ocs';
import { answer, fail, sent } from '../api';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const FULL = 'pt_AbC12345_secret+part/shown=once';

function token(id: number, name: string, scopes: ('ocs:query' | 'ums:send')[], over: object = {}) {
  return {
    id,
    name,
    prefix: `pt_Tok${id}`,
    scopes,
    createdAt: '2025-01-01T00:00:00.000Z',
    expiresAt: null,
    lastUsedAt: '2025-01-02T04:05:00.000Z',
    lastUsedIp: '10.0.0.8',
    revokedAt: null,
    status: 'active' as const,
    ...over,
  };
}

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsApi.scriptInfo, {
    success: true,
    data: {
      baseUrl: 'https://portal.example.edu',
      version: '1.0.0',
      changelog: [],
      userscriptUrl: 'https://portal.example.edu/api/ocs/userscript.user.js',
      subscriptionBase: 'https://portal.example.edu/api/ocs/config',
    },
  });
  answer(userApi.listTokens, {
    success: true,
    total: 2,
    current: 1,
    pageSize: 100,
    data: [
      token(1, '宿舍电脑', ['ocs:query'], { expiresAt: '2025-04-01T00:00:00.000Z' }),
      token(2, '推送脚本', ['ums:send']),
    ],
  });
});

async function submit(name: string) {
  fireEvent.change(await screen.findByLabelText('令牌名称'), { target: { value: name } });
  await act(async () => fireEvent.click(screen.getByText('生成令牌', { selector: 'button span' })));
}

describe('OCS token generation', () => {
  it('lists only active ocs:query tokens, with expiry and last use, and links to token management', async () => {
    renderAt('/OCS/tokenGen', <OcsTokenGenPage />);
    const row = (await screen.findByText('宿舍电脑')).closest('tr') as HTMLElement;
    expect(call).toHaveBeenCalledWith(userApi.listTokens, { query: { current: 1, pageSize: 100, status: 'active' } });
    expect(row).toHaveTextContent('pt_Tok1…');
    expect(row).toHaveTextContent('2025-04-01 08:00');
    expect(row).toHaveTextContent('2025-01-02 12:05');
    expect(screen.queryByText('推送脚本')).not.toBeInTheDocument();
    expect(screen.getByText('管理全部令牌').closest('a')).toHaveAttribute('href', '/user/tokenManage');
  });

  it('creates an ocs:query-only token, shows it once and hands it to configGen without putting it in the URL', async () => {
    answer(userApi.createToken, { success: true, data: { ...token(7, '笔记本', ['ocs:query']), token: FULL } });
    // Both pages, as the app routes them; the probe shows every address the tab went through.
    const seen: string[] = [];
    function Probe() {
      const l = useLocation();
      seen.push(`${l.pathname}${l.search}${l.hash}${JSON.stringify(l.state ?? null)}`);
      return <output data-testid="location">{`${l.pathname}${l.search}`}</output>;
    }
    render(
      <MemoryRouter initialEntries={['/OCS/tokenGen']}>
        <Routes>
          <Route path="/OCS/tokenGen" element={<OcsTokenGenPage />} />
          <Route path="/OCS/configGen" element={<ConfigGenPage />} />
        </Routes>
        <Probe />
      </MemoryRouter>,
    );
    expect(await screen.findByText('OCS 题库查询（ocs:query）')).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('30 天'));
    await submit(' 笔记本 ');
    expect(call).toHaveBeenCalledWith(
      userApi.createToken,
      { body: { name: '笔记本', scopes: ['ocs:query'], expiresInDays: 30 } },
      { skipErrorHandler: true },
    );
    const secret = await screen.findByTestId('copyable-secret');
    expect(within(secret).getByText(FULL)).toBeInTheDocument();
    expect(screen.getByText('该令牌只显示这一次，请立即复制保存')).toBeInTheDocument();
    await waitFor(() => expect(sent(userApi.listTokens)).toHaveLength(2));

    fireEvent.click(screen.getByText('用此令牌生成配置'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/configGen$/));
    // The config page starts with the token and builds the config with it.
    expect(await screen.findByLabelText('令牌全文')).toHaveValue(FULL);
    await waitFor(() => expect(screen.getByTestId('ocs-config-json')).toHaveTextContent(FULL));
    // Not in any address (path, query, hash) nor in the history state.
    expect(seen.length).toBeGreaterThan(1);
    for (const entry of seen) expect(entry).not.toContain('secret');
  });

  it('shows a 409 (duplicate name or token limit) inline and no token', async () => {
    fail(userApi.createToken, {
      response: {
        status: 409,
        data: {
          success: false,
          errorCode: 'CONFLICT',
          errorMessage: '已有同名的有效令牌',
          data: { name: ['名称已被使用'] },
        },
      },
    });
    renderAt('/OCS/tokenGen', <OcsTokenGenPage />);
    await submit('宿舍电脑');
    expect(await screen.findByText('已有同名的有效令牌')).toBeInTheDocument();
    expect(await screen.findByText('名称已被使用')).toBeInTheDocument();
    expect(screen.queryByTestId('copyable-secret')).not.toBeInTheDocument();
  });

  it('needs a name, and says so when there is no OCS token yet', async () => {
    answer(userApi.listTokens, { success: true, total: 0, current: 1, pageSize: 100, data: [] });
    renderAt('/OCS/tokenGen', <OcsTokenGenPage />);
    expect(await screen.findByText('还没有可查询 OCS 的有效令牌')).toBeInTheDocument();
    await submit('  ');
    expect(await screen.findByText('请输入令牌名称')).toBeInTheDocument();
    expect(sent(userApi.createToken)).toEqual([]);
  });
});
