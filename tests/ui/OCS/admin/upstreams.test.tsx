import UpstreamsPage from '@/pages/OCS/OCSAdmin/upstreams';
import * as ocsUpstreamApi from '@/contract/api/ocsUpstream';
import { call } from '@/services/call';
import { answer, callsOf, fail, sent } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { BROKEN, GOOD, upstream } from './upstreamFixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsUpstreamApi.listUpstreams, { success: true, data: [GOOD, BROKEN] });
});

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

it('shows each upstream’s figures: budget, success and answer rates, latency, last error, breaker', async () => {
  renderAt('/OCS/OCSAdmin/upstreams', <UpstreamsPage />);
  await screen.findByText('good');
  const r = row('good');
  expect(r).toHaveTextContent('31 / 500');
  expect(r).toHaveTextContent('95%');
  expect(r).toHaveTextContent('75%');
  expect(r).toHaveTextContent('420 毫秒');
  expect(within(r).getByText('HTTP 502')).toBeInTheDocument();
  expect(within(r).getByText('正常')).toBeInTheDocument();
  expect(within(row('broken')).getByText('已熔断')).toBeInTheDocument();
});

it('adds an upstream from a pasted OCS config, with the parameter template and the JSONPath', async () => {
  answer(ocsUpstreamApi.createUpstream, { success: true, data: upstream(3, 'pasted') });
  renderAt('/OCS/OCSAdmin/upstreams', <UpstreamsPage />);
  await screen.findByText('good');
  fireEvent.click(screen.getByText('添加上游题库'));
  const drawer = (await screen.findByText('添加上游题库', { selector: '.ant-drawer-title' })).closest(
    '.ant-drawer',
  ) as HTMLElement;
  fireEvent.click(within(drawer).getByText('从 OCS 题库配置导入（可选）'));
  fireEvent.change(await within(drawer).findByLabelText('OCS 题库配置'), { target: { value: 'not json' } });
  fireEvent.click(within(drawer).getByText('填入请求设置'));
  expect(await within(drawer).findByText('不是有效的 JSON')).toBeInTheDocument();
  fireEvent.change(within(drawer).getByLabelText('OCS 题库配置'), {
    target: {
      value: JSON.stringify([
        {
          name: 'My Bank',
          url: 'https://bank.example/api',
          method: 'post',
          data: { q: '${title}', key: '${secret}' },
          handler: 'return (res) => [res.q, res.a]',
        },
      ]),
    },
  });
  fireEvent.click(within(drawer).getByText('填入请求设置'));
  await waitFor(() =>
    expect((within(drawer).getByLabelText('接口地址') as HTMLInputElement).value).toBe('https://bank.example/api'),
  );
  expect((within(drawer).getByLabelText('名称') as HTMLInputElement).value).toBe('My-Bank');
  fireEvent.change(within(drawer).getByLabelText('答案路径（JSONPath）'), { target: { value: '$.a' } });
  fireEvent.change(within(drawer).getByLabelText('密钥（可选）'), { target: { value: 'tk-123456789' } });
  await act(async () => fireEvent.click(within(drawer).getByText('添 加')));
  await waitFor(() => expect(sent(ocsUpstreamApi.createUpstream)).not.toEqual([]));
  expect(sent(ocsUpstreamApi.createUpstream)[0]?.body).toMatchObject({
    name: 'My-Bank',
    url: 'https://bank.example/api',
    method: 'post',
    data: { q: '${title}', key: '${secret}' },
    answerPath: '$.a',
    secret: 'tk-123456789',
  });
});

it('puts the server’s field errors on the form; a bad template line is caught before sending', async () => {
  fail(ocsUpstreamApi.createUpstream, {
    response: {
      status: 400,
      data: {
        success: false,
        errorCode: 'BAD_REQUEST',
        errorMessage: '答案路径不是有效的 JSONPath（例如 $.data.answer）',
        data: { answerPath: ['答案路径不是有效的 JSONPath（例如 $.data.answer）'] },
      },
    },
  });
  renderAt('/OCS/OCSAdmin/upstreams', <UpstreamsPage />);
  await screen.findByText('good');
  fireEvent.click(screen.getByText('添加上游题库'));
  const drawer = (await screen.findByText('添加上游题库', { selector: '.ant-drawer-title' })).closest(
    '.ant-drawer',
  ) as HTMLElement;
  fireEvent.change(within(drawer).getByLabelText('名称'), { target: { value: 'x' } });
  fireEvent.change(within(drawer).getByLabelText('接口地址'), { target: { value: 'https://x.example' } });
  fireEvent.change(within(drawer).getByLabelText('参数模板'), { target: { value: 'title=${title}\n没有等号' } });
  await act(async () => fireEvent.click(within(drawer).getByText('添 加')));
  expect(await within(drawer).findByText('第 2 行应为“名称=值”')).toBeInTheDocument();
  expect(sent(ocsUpstreamApi.createUpstream)).toEqual([]);
  fireEvent.change(within(drawer).getByLabelText('参数模板'), { target: { value: 'title=${title}' } });
  fireEvent.change(within(drawer).getByLabelText('答案路径（JSONPath）'), { target: { value: '$[' } });
  await act(async () => fireEvent.click(within(drawer).getByText('添 加')));
  expect(
    await within(drawer).findByText('答案路径不是有效的 JSONPath（例如 $.data.answer）', {
      selector: '.ant-form-item-explain-error',
    }),
  ).toBeInTheDocument();
});

it('switches an upstream off, tests one, and deletes one after a confirmation', async () => {
  answer(ocsUpstreamApi.updateUpstream, { success: true, data: { ...GOOD, enabled: false } });
  answer(ocsUpstreamApi.testUpstream, {
    success: true,
    data: { outcome: 'answered', answer: '北京', error: null, status: 200, latencyMs: 87, body: '{"code":1}' },
  });
  answer(ocsUpstreamApi.deleteUpstream, { success: true });
  renderAt('/OCS/OCSAdmin/upstreams', <UpstreamsPage />);
  await screen.findByText('good');
  await act(async () => fireEvent.click(screen.getByLabelText('启用 good')));
  await waitFor(() =>
    expect(call).toHaveBeenCalledWith(ocsUpstreamApi.updateUpstream, { params: { id: 1 }, body: { enabled: false } }),
  );
  fireEvent.click(within(row('good')).getByText(/^测\s?试$/));
  const modal = (await screen.findByText('测试上游题库「good」')).closest('.ant-modal') as HTMLElement;
  await act(async () => fireEvent.click(within(modal).getByText('发送测试')));
  expect(await within(modal).findByText('答案：北京')).toBeInTheDocument();
  expect(within(modal).getByText('87 毫秒')).toBeInTheDocument();
  expect(callsOf(ocsUpstreamApi.testUpstream)[0]).toEqual([
    {
      params: { id: 1 },
      body: { title: '中华人民共和国的首都是哪座城市？', type: 'single', options: 'A. 上海\nB. 北京\nC. 广州' },
    },
    { skipErrorHandler: true },
  ]);
  fireEvent.click(within(row('broken')).getByText(/^删\s?除$/));
  await act(async () => fireEvent.click(await screen.findByText('删 除', { selector: '.ant-popconfirm button span' })));
  await waitFor(() => expect(call).toHaveBeenCalledWith(ocsUpstreamApi.deleteUpstream, { params: { id: 2 } }));
});
