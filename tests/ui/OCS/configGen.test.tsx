import { handOffToken } from '@/components/tokenHandoff';
import ConfigGenPage from '@/pages/OCS/configGen';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import * as ocsApi from '@/contract/api/ocs';
import { answer } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const BASE = 'https://portal.example.edu';
const FULL = 'pt_AbC12345_secretpartthatisshownonce';
const token = (id: number, name: string, prefix: string, scopes: ('ocs:query' | 'ums:send')[]) => ({
  id,
  name,
  prefix,
  scopes,
  createdAt: '2025-01-01T00:00:00.000Z',
  expiresAt: null,
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
  status: 'active' as const,
});
const fetchMock = jest.fn();

beforeEach(() => {
  answer(ocsApi.scriptInfo, {
    success: true,
    data: {
      baseUrl: BASE,
      version: '1.0.0',
      changelog: [],
      userscriptUrl: `${BASE}/api/ocs/userscript.user.js`,
      subscriptionBase: `${BASE}/api/ocs/config`,
    },
  });
  answer(userApi.listTokens, {
    success: true,
    data: [token(7, '笔记本脚本', 'pt_AbC12345', ['ocs:query']), token(8, '推送', 'pt_Ums00000', ['ums:send'])],
    total: 2,
    current: 1,
    pageSize: 100,
  });
  // The test button's request is built by the real code (services/answererTest); only fetch itself is stubbed.
  fetchMock.mockReset();
  window.fetch = fetchMock;
});

const json = () => JSON.parse(screen.getByTestId('ocs-config-json').textContent!);

describe('OCS config generation', () => {
  it('builds the config from a token handed over in memory, with no token in the address bar', async () => {
    handOffToken(FULL);
    const first = renderAt('/OCS/configGen', <ConfigGenPage />);
    await waitFor(() => expect(screen.getByTestId('ocs-config-json')).toBeInTheDocument());
    expect(call).toHaveBeenCalledWith(
      userApi.listTokens,
      { query: expect.objectContaining({ status: 'active' }) },
      expect.anything(),
    );
    expect(json()).toEqual([
      expect.objectContaining({
        url: `${BASE}/api/ocs/query`,
        homepage: `${BASE}/OCS/overview`,
        method: 'get',
        type: 'GM_xmlhttpRequest',
        data: { title: '${title}', type: '${type}', options: '${options}', token: FULL },
      }),
    ]);
    expect(screen.getByLabelText('令牌全文')).toHaveValue(FULL);
    expect(screen.getByText('对应令牌：笔记本脚本（pt_AbC12345…）')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/configGen$/);
    expect(screen.getByTestId('ocs-subscription-url')).toHaveTextContent(
      `${BASE}/api/ocs/config?token=${FULL}&type=GM_xmlhttpRequest&method=get`,
    );
    expect(screen.getByText('portal.example.edu', { selector: 'code' })).toBeInTheDocument();
    first.unmount();

    // Read once: opening the page again starts without it.
    renderAt('/OCS/configGen', <ConfigGenPage />);
    expect(await screen.findByText('填写令牌后生成配置')).toBeInTheDocument();
    expect(screen.getByLabelText('令牌全文')).toHaveValue('');
  });

  it('switches request type and method; pasting another token updates the JSON; copy and download work', async () => {
    renderAt('/OCS/configGen', <ConfigGenPage />);
    expect(await screen.findByText('填写令牌后生成配置')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('令牌全文'), { target: { value: ' pt_Other999_zzz ' } });
    expect(json()[0].data.token).toBe('pt_Other999_zzz');
    expect(screen.getByText('这不是你当前有效的 ocs:query 令牌，查询会被拒绝')).toBeInTheDocument();

    fireEvent.click(screen.getByLabelText('POST'));
    fireEvent.click(screen.getByLabelText('fetch'));
    expect(json()[0]).toMatchObject({ method: 'post', type: 'fetch' });
    expect(screen.getByTestId('ocs-subscription-url')).toHaveTextContent('&type=fetch&method=post');

    const execCommand = jest.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    await act(async () => fireEvent.click(screen.getAllByLabelText('复制')[0]));
    expect(execCommand).toHaveBeenCalledWith('copy');

    const blobs: Blob[] = [];
    URL.createObjectURL = jest.fn((b: Blob) => (blobs.push(b), 'blob:x'));
    URL.revokeObjectURL = jest.fn();
    const saved: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(`${this.download} ${this.href}`);
    });
    fireEvent.click(screen.getByText('下载 .json'));
    click.mockRestore();
    expect(saved).toEqual(['ocs-portal-config.json blob:x']);
    expect(blobs).toHaveLength(1);
    expect(blobs[0].type).toBe('application/json');
  });

  it('测试配置 sends the sample question as OCS would and shows the handler result', async () => {
    fetchMock.mockResolvedValue({
      status: 200,
      text: async () =>
        JSON.stringify({
          code: 1,
          question: '中华人民共和国的首都是哪座城市？',
          answer: 'A. 北京',
          source: 'bank',
          cost: 1,
          balance: 99,
        }),
    });
    handOffToken(FULL);
    renderAt('/OCS/configGen', <ConfigGenPage />);
    await screen.findByTestId('ocs-config-json');
    await act(async () => fireEvent.click(screen.getByText('测试配置')));
    expect(await screen.findByText('配置可用：查到了答案')).toBeInTheDocument();
    expect(screen.getByTestId('ocs-handler-result')).toHaveTextContent(
      '["中华人民共和国的首都是哪座城市？", "A. 北京"]',
    );
    const [url, init] = fetchMock.mock.calls[0];
    const sent = new URL(url);
    expect(`${sent.origin}${sent.pathname}`).toBe(`${BASE}/api/ocs/query`);
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      title: '中华人民共和国的首都是哪座城市？',
      type: 'single',
      options: 'A. 北京\nB. 上海\nC. 广州\nD. 深圳',
      token: FULL,
    });
    expect(init).toMatchObject({ method: 'GET' });

    // POST sends the same data as JSON; a miss shows the message and an undefined answer.
    fetchMock.mockResolvedValue({ status: 200, text: async () => JSON.stringify({ code: 0, msg: '余额不足' }) });
    fireEvent.click(screen.getByLabelText('POST'));
    await act(async () => fireEvent.click(screen.getByText('测试配置')));
    expect(await screen.findByText('接口可用，但没有答案：余额不足')).toBeInTheDocument();
    expect(screen.getByTestId('ocs-handler-result')).toHaveTextContent('["余额不足", undefined]');
    const [postUrl, postInit] = fetchMock.mock.calls[1];
    expect(postUrl).toBe(`${BASE}/api/ocs/query`);
    expect(postInit.method).toBe('POST');
    expect(JSON.parse(postInit.body)).toMatchObject({ token: FULL, type: 'single' });
  });

  it('测试配置 takes the type, title and options to try, and shows the pieces OCS reads', async () => {
    fetchMock.mockResolvedValue({
      status: 200,
      text: async () =>
        JSON.stringify({
          code: 1,
          question: '空循环写作____',
          answer: '["for(;;);","C#"]',
          source: 'import',
          cost: 1,
          balance: 9,
        }),
    });
    handOffToken(FULL);
    renderAt('/OCS/configGen', <ConfigGenPage />);
    await screen.findByTestId('ocs-config-json');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '题型' }));
    fireEvent.click(await screen.findByTitle('填空题'));
    expect(screen.getByLabelText('选项（每行一个；填空题留空）')).toHaveValue('');
    fireEvent.change(screen.getByLabelText('题目'), { target: { value: '空循环写作____' } });
    await act(async () => fireEvent.click(screen.getByText('测试配置')));
    expect(await screen.findByText('配置可用：查到了答案')).toBeInTheDocument();
    const sent = new URL(fetchMock.mock.calls[0][0]);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      title: '空循环写作____',
      type: 'completion',
      options: '',
    });
    // The JSON array comes back whole: two pieces, `;` and `#` kept.
    expect(screen.getByTestId('ocs-answer-pieces')).toHaveTextContent('for(;;);C#');
    expect(within(screen.getByTestId('ocs-answer-pieces')).getAllByText(/./)).toHaveLength(2);
  });

  it('显示来源与置信度: the subscription and the handler show each answer’s source and confidence', async () => {
    fetchMock.mockResolvedValue({
      status: 200,
      text: async () =>
        JSON.stringify({
          code: 1,
          question: '首都？',
          answer: '北京',
          source: 'verified',
          confidence: 0.98,
          cost: 1,
          balance: 9,
        }),
    });
    handOffToken(FULL);
    renderAt('/OCS/configGen', <ConfigGenPage />);
    await screen.findByTestId('ocs-config-json');
    expect(json()[0].handler).not.toContain('confidence');
    fireEvent.click(screen.getByLabelText('答案面板显示来源与置信度'));
    await waitFor(() => expect(json()[0].handler).toContain('confidence'));
    expect(screen.getByTestId('ocs-subscription-url')).toHaveTextContent(
      `${BASE}/api/ocs/config?token=${FULL}&type=GM_xmlhttpRequest&method=get&detail=1`,
    );
    await act(async () => fireEvent.click(screen.getByText('测试配置')));
    expect(await screen.findByTestId('ocs-handler-result')).toHaveTextContent('["首都？〔已核实 98%〕", "北京"]');
    // The handler OCS evaluates says the same as the page.
    const handler = new Function(json()[0].handler)() as (r: unknown) => unknown;
    expect(handler({ code: 1, question: 'q', answer: 'a', source: 'upstream:甲', confidence: 0.8 })).toEqual([
      'q〔上游 甲 80%〕',
      'a',
    ]);
  });

  it('explains an unreachable API', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    handOffToken(FULL);
    renderAt('/OCS/configGen', <ConfigGenPage />);
    await screen.findByTestId('ocs-config-json');
    await act(async () => fireEvent.click(screen.getByText('测试配置')));
    expect(await screen.findByText('测试失败')).toBeInTheDocument();
    expect(screen.getByText(/无法连接 https:\/\/portal\.example\.edu\/api\/ocs\/query/)).toBeInTheDocument();
  });

  it('points a user without an ocs:query token to token generation', async () => {
    answer(userApi.listTokens, {
      success: true,
      data: [token(8, '推送', 'pt_Ums00000', ['ums:send'])],
      total: 1,
      current: 1,
      pageSize: 100,
    });
    renderAt('/OCS/configGen', <ConfigGenPage />);
    expect(await screen.findByText('你还没有可用于 OCS 查询（ocs:query）的有效令牌')).toBeInTheDocument();
    expect(screen.getByText('去生成令牌').closest('a')).toHaveAttribute('href', '/OCS/tokenGen');
    expect(screen.queryByTestId('ocs-config-json')).not.toBeInTheDocument();
  });
});
