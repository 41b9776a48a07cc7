import AiPromptPage from '@/pages/OCS/preferenceSetting/aiPrompt';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { answer, callsOf, sent } from '../../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { DEFAULTS, apiError, prefs } from '../aiFixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(ocsAiApi.promptDefaults, { success: true, data: DEFAULTS });
  answer(ocsAiApi.getPreferences, prefs());
  // Renders like the server: one pass over the three variables, refusing a template without ${title}.
  answer(ocsAiApi.promptPreview, async ({ body: { template, type = 'single' } }) => {
    if (!template.includes('${title}'))
      throw apiError(400, '提示词模板必须包含 ${title}（题目）', { template: ['提示词模板必须包含 ${title}（题目）'] });
    const q = DEFAULTS.samples[type];
    const prompt = template.replace(/\$\{(title|type|options)\}/g, (_m, k) =>
      k === 'title' ? q.title : k === 'type' ? type : q.options.join('|'),
    );
    return { success: true as const, data: { prompt, question: q } };
  });
  answer(ocsAiApi.savePreferences, async ({ body }) => prefs({ promptTemplate: body.promptTemplate ?? null }));
});

const editor = () => screen.getByLabelText('提示词模板') as HTMLTextAreaElement;
const preview = () => screen.findByTestId('prompt-preview');
const type = (value: string) => fireEvent.change(editor(), { target: { value } });

it('starts on the built-in defaults: variables to insert, a status tag, and the preview of the type’s default', async () => {
  renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
  expect(await screen.findByText('正在使用系统默认模板')).toBeInTheDocument();
  for (const v of ['${title}', '${type}', '${options}'])
    expect(screen.getByText(v, { selector: 'button span' })).toBeInTheDocument();
  expect(editor().value).toBe('');
  expect(await preview()).toHaveTextContent('单选默认：中华人民共和国的首都是哪座城市？');
  expect(screen.getByTestId('char-count')).toHaveTextContent('0 / 4000');
});

it('previews what is typed, counts characters, and inserts a variable at the cursor', async () => {
  renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
  await screen.findByText('正在使用系统默认模板');
  type('请作答：${title}');
  expect(screen.getByTestId('char-count')).toHaveTextContent('12 / 4000');
  await waitFor(async () => expect(await preview()).toHaveTextContent('请作答：中华人民共和国的首都是哪座城市？'));
  editor().setSelectionRange(4, 4);
  fireEvent.click(screen.getByText('${type}', { selector: 'button span' }));
  expect(editor().value).toBe('请作答：${type}${title}');
});

it('shows the server’s validation problem and will not save it', async () => {
  renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
  await screen.findByText('正在使用系统默认模板');
  type('没有题目变量的模板');
  await waitFor(() =>
    expect(screen.getByTestId('template-error')).toHaveTextContent('提示词模板必须包含 ${title}（题目）'),
  );
  await waitFor(() => expect(screen.getByText('保 存', { selector: 'button span' }).closest('button')).toBeDisabled());
  expect(sent(ocsAiApi.savePreferences)).toEqual([]);
});

it('marks a template over the limit in the counter', async () => {
  renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
  await screen.findByText('正在使用系统默认模板');
  type('${title}' + '字'.repeat(3993));
  expect(screen.getByTestId('char-count')).toHaveTextContent('4001 / 4000');
});

it('resets the editor to the default of the chosen type after confirmation, previewing that type', async () => {
  renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
  await screen.findByText('正在使用系统默认模板');
  type('我的模板 ${title}');
  fireEvent.click(screen.getByText('判断题'));
  await waitFor(() =>
    expect(callsOf(ocsAiApi.promptPreview).at(-1)).toEqual([
      { body: { template: '我的模板 ${title}', type: 'judgement' } },
      { skipErrorHandler: true },
    ]),
  );
  fireEvent.click(screen.getByText('恢复为判断题默认模板'));
  const tip = (await screen.findByText('用「判断题」的默认模板替换编辑框中的内容？')).closest(
    '.ant-popover',
  ) as HTMLElement;
  expect(editor().value).toBe('我的模板 ${title}');
  await act(async () => fireEvent.click(within(tip).getByText(/^替\s?换$/, { selector: 'button span' })));
  expect(editor().value).toBe(DEFAULTS.templates.judgement);
  await waitFor(async () =>
    expect(await preview()).toHaveTextContent('判断默认：光在真空中的传播速度约为每秒 30 万千米。'),
  );
});

it('saves the template, and saving an empty editor goes back to the defaults', async () => {
  answer(ocsAiApi.getPreferences, prefs({ promptTemplate: '旧模板 ${title}' }));
  renderAt('/OCS/preferenceSetting/aiPrompt', <AiPromptPage />);
  expect(await screen.findByText('正在使用自定义模板')).toBeInTheDocument();
  expect(editor().value).toBe('旧模板 ${title}');
  type('新模板 ${title}\n${options}');
  await waitFor(async () => expect(await preview()).toHaveTextContent('新模板'));
  await act(async () => fireEvent.click(screen.getByText('保 存', { selector: 'button span' })));
  expect(callsOf(ocsAiApi.savePreferences).at(-1)).toEqual([
    { body: { promptTemplate: '新模板 ${title}\n${options}' } },
    { skipErrorHandler: true },
  ]);
  fireEvent.click(screen.getByText('清空（按题型使用默认）'));
  await waitFor(async () => expect(await preview()).toHaveTextContent('单选默认'));
  await act(async () => fireEvent.click(screen.getByText('保 存', { selector: 'button span' })));
  expect(callsOf(ocsAiApi.savePreferences).at(-1)).toEqual([
    { body: { promptTemplate: null } },
    { skipErrorHandler: true },
  ]);
  expect(await screen.findByText('正在使用系统默认模板')).toBeInTheDocument();
});
