import AdminModelsPage from '@/pages/OCS/OCSAdmin/aiModels';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { answer, callsOf, sent } from '../../api';
import { OCS_AI_SAMPLES } from '@/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { MODELS, PROVIDERS } from '../aiFixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsAiApi.listProviders, { success: true, data: PROVIDERS });
  answer(ocsAiApi.listModels, { success: true, data: MODELS });
});

const row = (text: string) =>
  screen
    .getAllByText(text)
    .map((e) => e.closest('tr'))
    .find(Boolean) as HTMLElement;
const drawer = async (title: string) =>
  (await screen.findByText(title, { selector: '.ant-drawer-title' })).closest('.ant-drawer') as HTMLElement;
const submit = (d: HTMLElement, text: RegExp) =>
  act(async () => fireEvent.click(within(d).getByText(text, { selector: 'button span' })));

it('lists providers with the masked key only, and models with price and state', async () => {
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('https://api.deepseek.com/v1');
  expect(within(row('https://api.deepseek.com/v1')).getByText('sk-3…9f2a')).toBeInTheDocument();
  expect(within(row('DeepSeek V3')).getByText('2 积分/题')).toBeInTheDocument();
  expect(within(row('DeepSeek V3')).getByText('启用')).toBeInTheDocument();
  expect(within(row('DeepSeek R1')).getByText('停用')).toBeInTheDocument();
  expect(within(row('DeepSeek R1')).getByText('120 秒')).toBeInTheDocument();
  expect(within(row('DeepSeek R1')).getByText('1024')).toBeInTheDocument();
});

it('edits a provider without showing the key; an empty key field keeps the stored key', async () => {
  answer(ocsAiApi.updateProvider, { success: true, data: PROVIDERS[0] });
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('https://api.deepseek.com/v1');
  fireEvent.click(within(row('https://api.deepseek.com/v1')).getByText('编辑'));
  const d = await drawer('编辑服务商「DeepSeek」');
  const key = within(d).getByPlaceholderText('已设置（sk-3…9f2a），留空保持不变') as HTMLInputElement;
  expect(key.value).toBe('');
  fireEvent.change(within(d).getByLabelText('名称'), { target: { value: 'DeepSeek 官方' } });
  await submit(d, /^保\s?存$/);
  await waitFor(() => expect(sent(ocsAiApi.updateProvider)).not.toEqual([]));
  expect(callsOf(ocsAiApi.updateProvider)[0]).toEqual([
    { params: { id: 1 }, body: { name: 'DeepSeek 官方', baseURL: 'https://api.deepseek.com/v1' } },
    { skipErrorHandler: true },
  ]);
});

it('adds a provider only with a key and an http(s) address', async () => {
  answer(ocsAiApi.createProvider, { success: true, data: { ...PROVIDERS[1], id: 3 } });
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('https://api.deepseek.com/v1');
  fireEvent.click(screen.getByText('添加服务商', { selector: 'button span' }));
  const d = await drawer('添加服务商');
  fireEvent.change(within(d).getByLabelText('名称'), { target: { value: 'vLLM' } });
  fireEvent.change(within(d).getByLabelText('接口地址（Base URL）'), { target: { value: 'ftp://10.0.0.2/v1' } });
  await submit(d, /^添\s?加$/);
  expect(await within(d).findByText('请输入 API 密钥')).toBeInTheDocument();
  expect(within(d).getByText('接口地址须以 http:// 或 https:// 开头')).toBeInTheDocument();
  expect(sent(ocsAiApi.createProvider)).toEqual([]);
  fireEvent.change(within(d).getByLabelText('接口地址（Base URL）'), { target: { value: 'http://10.0.0.2:8000/v1' } });
  fireEvent.change(within(d).getByLabelText('API 密钥'), { target: { value: 'sk-vllm-secret' } });
  await submit(d, /^添\s?加$/);
  await waitFor(() => expect(sent(ocsAiApi.createProvider)).not.toEqual([]));
  expect(sent(ocsAiApi.createProvider)[0]?.body).toEqual({
    name: 'vLLM',
    baseURL: 'http://10.0.0.2:8000/v1',
    apiKey: 'sk-vllm-secret',
  });
});

it('deletes a provider only after confirmation, warning about its models', async () => {
  answer(ocsAiApi.deleteProvider, { success: true });
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('https://api.deepseek.com/v1');
  fireEvent.click(within(row('https://api.deepseek.com/v1')).getByText('删除'));
  const tip = (await screen.findByText('删除服务商「DeepSeek」？')).closest('.ant-popover') as HTMLElement;
  expect(within(tip).getByText(/它的 2 个模型会一起删除/)).toBeInTheDocument();
  expect(sent(ocsAiApi.deleteProvider)).toEqual([]);
  await act(async () => fireEvent.click(within(tip).getByText(/^删\s?除$/, { selector: 'button span' })));
  expect(call).toHaveBeenCalledWith(ocsAiApi.deleteProvider, { params: { id: 1 } });
});

it('测试 shows the latency, the raw reply and the parsed answer', async () => {
  answer(ocsAiApi.testModel, {
    success: true,
    data: { ok: true, latencyMs: 812, question: OCS_AI_SAMPLES.single, raw: 'B', answer: '北京', error: null },
  });
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('DeepSeek V3');
  await act(async () => fireEvent.click(within(row('DeepSeek V3')).getByText(/^测\s?试$/)));
  expect(call).toHaveBeenCalledWith(ocsAiApi.testModel, { params: { id: 1 }, body: { type: 'single' } });
  const result = await screen.findByTestId('model-test-result');
  expect(result).toHaveTextContent('「DeepSeek V3」作答成功，耗时 812 ms');
  expect(within(result).getByText('B')).toBeInTheDocument();
  expect(within(result).getByText('北京')).toBeInTheDocument();
});

it('a failed test shows why', async () => {
  answer(ocsAiApi.testModel, {
    success: true,
    data: {
      ok: false,
      latencyMs: 120000,
      question: OCS_AI_SAMPLES.single,
      raw: null,
      answer: null,
      error: 'AI 服务超时，未扣费',
    },
  });
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('DeepSeek R1');
  await act(async () => fireEvent.click(within(row('DeepSeek R1')).getByText(/^测\s?试$/)));
  const result = await screen.findByTestId('model-test-result');
  expect(result).toHaveTextContent('「DeepSeek R1」测试失败');
  expect(result).toHaveTextContent('AI 服务超时，未扣费');
});

it('adds a model with the timeout given in seconds', async () => {
  answer(ocsAiApi.createModel, { success: true, data: MODELS[0] });
  renderAt('/OCS/OCSAdmin/models', <AdminModelsPage />);
  await screen.findByText('DeepSeek V3');
  fireEvent.click(screen.getByText('添加模型', { selector: 'button span' }));
  const d = await drawer('添加模型');
  fireEvent.change(within(d).getByLabelText('模型 ID'), { target: { value: 'qwen-max' } });
  fireEvent.change(within(d).getByLabelText('显示名称'), { target: { value: '通义千问 Max' } });
  fireEvent.change(within(d).getByLabelText('单价（积分/题）'), { target: { value: '4' } });
  fireEvent.change(within(d).getByLabelText('超时（秒）'), { target: { value: '30' } });
  await submit(d, /^添\s?加$/);
  await waitFor(() => expect(sent(ocsAiApi.createModel)).not.toEqual([]));
  expect(sent(ocsAiApi.createModel)[0]?.body).toEqual({
    providerId: 1,
    model: 'qwen-max',
    displayName: '通义千问 Max',
    price: 4,
    enabled: true,
    timeoutMs: 30_000,
    maxTokens: null,
  });
});
