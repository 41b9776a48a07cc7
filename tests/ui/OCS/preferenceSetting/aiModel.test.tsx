import AiModelPage from '@/pages/OCS/preferenceSetting/aiModel';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { answer, callsOf, fail, sent } from '../../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { apiError, prefs } from '../aiFixtures';

jest.mock('@/services/call');

const OPTIONS = [
  { id: 1, displayName: 'DeepSeek V3', model: 'deepseek-chat', price: 2 },
  { id: 4, displayName: '通义千问 Turbo', model: 'qwen-turbo', price: 1 },
];

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsAiApi.modelOptions, { success: true, data: OPTIONS });
  answer(ocsAiApi.getPreferences, prefs());
  answer(ocsAiApi.savePreferences, async ({ body }) => prefs(body as object));
});

const radio = (label: RegExp | string) =>
  screen.getByText(label).closest('label')!.querySelector('input') as HTMLInputElement;
const save = () => act(async () => fireEvent.click(screen.getByText('保 存', { selector: 'button span' })));

it('offers the enabled models with their price, the strategies, and an unlimited cap by default', async () => {
  renderAt('/OCS/preferenceSetting/aiModel', <AiModelPage />);
  expect(await screen.findByText('DeepSeek V3')).toBeInTheDocument();
  expect(screen.getByText('— 2 积分/题')).toBeInTheDocument();
  expect(screen.getByText('— 1 积分/题')).toBeInTheDocument();
  expect(radio(/自动（最便宜的可用模型，当前为 通义千问 Turbo）/).checked).toBe(true);
  expect(radio('题库优先再 AI（默认）').checked).toBe(true);
  expect(radio('仅题库')).toBeInTheDocument();
  expect(radio('仅 AI')).toBeInTheDocument();
  expect(radio('不限').checked).toBe(true);
  expect(screen.getByLabelText('每日上限（积分）')).toBeDisabled();
  expect(screen.getByText(/今日已在 AI 上花费 7 积分/)).toBeInTheDocument();
});

it('saves a chosen model, strategy and cap', async () => {
  renderAt('/OCS/preferenceSetting/aiModel', <AiModelPage />);
  await screen.findByText('DeepSeek V3');
  fireEvent.click(radio('DeepSeek V3'));
  fireEvent.click(radio('仅 AI'));
  expect(await screen.findByText('每道题都让 AI 作答，即使题库中有答案。')).toBeInTheDocument();
  fireEvent.click(radio('不限'));
  await waitFor(() => expect(screen.getByLabelText('每日上限（积分）')).not.toBeDisabled());
  fireEvent.change(screen.getByLabelText('每日上限（积分）'), { target: { value: '30' } });
  await save();
  await waitFor(() => expect(sent(ocsAiApi.savePreferences)).not.toEqual([]));
  expect(callsOf(ocsAiApi.savePreferences)[0]).toEqual([
    { body: { modelId: 1, strategy: 'ai', dailyAiCap: 30, minConfidence: 0 } },
    { skipErrorHandler: true },
  ]);
});

it('asks for a cap once 不限 is unchecked, and sends null for 自动 and 不限', async () => {
  answer(ocsAiApi.getPreferences, prefs({ modelId: 4, strategy: 'bank', dailyAiCap: 10 }));
  renderAt('/OCS/preferenceSetting/aiModel', <AiModelPage />);
  await screen.findByText('DeepSeek V3');
  expect(radio('通义千问 Turbo').checked).toBe(true);
  expect((screen.getByLabelText('每日上限（积分）') as HTMLInputElement).value).toBe('10');
  fireEvent.change(screen.getByLabelText('每日上限（积分）'), { target: { value: '' } });
  await save();
  expect(await screen.findByText('请输入每日上限')).toBeInTheDocument();
  expect(sent(ocsAiApi.savePreferences)).toEqual([]);
  fireEvent.click(radio(/自动/));
  fireEvent.click(radio('不限'));
  await save();
  await waitFor(() => expect(sent(ocsAiApi.savePreferences)).not.toEqual([]));
  expect(sent(ocsAiApi.savePreferences)[0]?.body).toEqual({
    modelId: null,
    strategy: 'bank',
    dailyAiCap: null,
    minConfidence: 0,
  });
});

it('sets the lowest confidence accepted, in percent, and refuses one above 100', async () => {
  answer(ocsAiApi.getPreferences, prefs({ minConfidence: 0.6 }));
  renderAt('/OCS/preferenceSetting/aiModel', <AiModelPage />);
  await screen.findByText('DeepSeek V3');
  const input = screen.getByLabelText('答案最低置信度') as HTMLInputElement;
  expect(input.value).toBe('60');
  fireEvent.change(input, { target: { value: '120' } });
  await save();
  expect(await screen.findByText('请输入 0 到 100 之间的数')).toBeInTheDocument();
  expect(sent(ocsAiApi.savePreferences)).toEqual([]);
  fireEvent.change(input, { target: { value: '85' } });
  await save();
  await waitFor(() => expect(sent(ocsAiApi.savePreferences)).not.toEqual([]));
  expect(sent(ocsAiApi.savePreferences)[0]?.body).toMatchObject({ minConfidence: 0.85 });
});

it('says so when no model is enabled, or when the chosen one was disabled', async () => {
  answer(ocsAiApi.modelOptions, { success: true, data: [] });
  answer(ocsAiApi.getPreferences, prefs({ modelId: 9 }));
  renderAt('/OCS/preferenceSetting/aiModel', <AiModelPage />);
  expect(await screen.findByText('管理员还没有启用任何 AI 模型，目前只能使用题库作答。')).toBeInTheDocument();
  expect(screen.getByText('你选择的模型已停用，现在会自动使用最便宜的可用模型。')).toBeInTheDocument();
});

it('shows the server’s field error', async () => {
  fail(ocsAiApi.savePreferences, apiError(400, '所选模型不存在或已停用', { modelId: ['所选模型不存在或已停用'] }));
  renderAt('/OCS/preferenceSetting/aiModel', <AiModelPage />);
  await screen.findByText('DeepSeek V3');
  fireEvent.click(radio('DeepSeek V3'));
  await save();
  expect(
    await screen.findByText('所选模型不存在或已停用', { selector: '.ant-form-item-explain-error' }),
  ).toBeInTheDocument();
});
