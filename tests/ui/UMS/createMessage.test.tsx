import CreateMessagePage from '@/pages/UMS/createMessage';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';
import { channelList, template } from './fixtures';

jest.mock('@/services/call');

beforeEach(() => {
  answer(umsApi.listChannels, channelList());
  answer(umsApi.listTemplates, { success: true, data: [template] });
});

const sendButton = () =>
  screen.getByText(/^发\s?送$/, { selector: 'button span' }).closest('button') as HTMLButtonElement;
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('create message', () => {
  it('counts UTF-8 bytes, not characters, and blocks sending past 20,000 bytes', async () => {
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    await screen.findByLabelText('内容');
    // 6,666 Chinese characters are 19,998 bytes; with a 2-byte title, exactly the limit.
    type('标题', 'ab');
    type('内容', '中'.repeat(6666));
    await waitFor(() => expect(screen.getByTestId('size-counter')).toHaveTextContent('20,000 / 20,000 字节'));
    expect(screen.getByTestId('size-counter')).toHaveAttribute('data-over', 'false');
    expect(sendButton()).not.toBeDisabled();

    type('内容', '中'.repeat(6667));
    await waitFor(() => expect(screen.getByTestId('size-counter')).toHaveTextContent('20,003 / 20,000 字节'));
    const counter = screen.getByTestId('size-counter');
    expect(counter).toHaveAttribute('data-over', 'true');
    expect(counter).toHaveClass('ant-typography-danger');
    expect(counter).toHaveTextContent('超出上限');
    expect(sendButton()).toBeDisabled();
    await act(async () => fireEvent.submit(sendButton().closest('form')!));
    expect(sent(umsApi.createMessage)).toEqual([]);
  });

  it('sends to the preselected default channel and opens the new message', async () => {
    answer(umsApi.createMessage, { success: true, data: { id: 42, status: 'queued' } });
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    await screen.findByLabelText('内容');
    expect(screen.getByText('我的提醒群（钉钉机器人，默认）')).toBeInTheDocument();
    type('标题', '构建完成');
    type('内容', '**全部**测试通过');
    await act(async () => fireEvent.click(sendButton()));
    await waitFor(() => expect(sent(umsApi.createMessage)).not.toEqual([]));
    expect(call).toHaveBeenCalledWith(
      umsApi.createMessage,
      {
        body: {
          title: '构建完成',
          content: '**全部**测试通过',
          type: 'markdown',
          channel: 1,
          priority: 'normal',
          idempotencyKey: expect.stringMatching(/^ui-/),
          sendAt: undefined,
        },
      },
      { skipErrorHandler: true },
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/UMS/queryMessage?id=42'));
  });

  it('fans out to several channels, or chains them in the order picked, with a priority', async () => {
    answer(umsApi.createMessage, { success: true, data: { id: 7, status: 'queued' } });
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    await screen.findByLabelText('内容');
    type('内容', '停电通知');
    const pick = async (label: string, option: string) => {
      const item = screen.getByText(label).closest('.ant-form-item') as HTMLElement;
      fireEvent.mouseDown(item.querySelector('.ant-select-selector') as HTMLElement);
      const options = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
      await act(async () => fireEvent.click(options[options.length - 1]));
    };
    fireEvent.click(screen.getByText('依次尝试（失败换下一个）'));
    await screen.findByText('渠道（按尝试顺序选择）');
    await pick('渠道（按尝试顺序选择）', '值班群（钉钉机器人）');
    await act(async () => fireEvent.click(sendButton()));
    expect(await screen.findByText('依次尝试至少选择两个渠道')).toBeInTheDocument();
    expect(sent(umsApi.createMessage)).toEqual([]);
    await pick('渠道（按尝试顺序选择）', '我的提醒群（钉钉机器人，默认）');
    await pick('优先级', '紧急');
    await act(async () => fireEvent.click(sendButton()));
    await waitFor(() => expect(sent(umsApi.createMessage)).not.toEqual([]));
    expect(sent(umsApi.createMessage)[0]?.body).toMatchObject({ fallback: [2, 1], priority: 'urgent' });
    expect(sent(umsApi.createMessage)[0]?.body).not.toHaveProperty('channel');

    // Sent: the form starts over (its tab stays open in the shell), ready for the next message.
    await waitFor(() => expect(screen.getByLabelText('内容')).toHaveValue(''));
    type('内容', '停电通知');
    fireEvent.click(screen.getByText('同时发到多个渠道'));
    await screen.findByText('渠道（可多选）');
    await pick('渠道（可多选）', '值班群（钉钉机器人）');
    await pick('渠道（可多选）', '我的提醒群（钉钉机器人，默认）');
    await act(async () => fireEvent.click(sendButton()));
    await waitFor(() => expect(sent(umsApi.createMessage)).toHaveLength(2));
    expect(sent(umsApi.createMessage)[1]?.body).toMatchObject({ channels: [2, 1] });
    // A new message, a new key: the second send is not a duplicate of the first.
    expect(sent(umsApi.createMessage)[1]?.body.idempotencyKey).not.toBe(
      sent(umsApi.createMessage)[0]?.body.idempotencyKey,
    );
  });

  it('sends with a template: its variables are filled in the preview and sent as vars', async () => {
    answer(umsApi.createMessage, { success: true, data: { id: 9, status: 'queued' } });
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    await screen.findByLabelText('内容');
    const item = screen.getByText('使用模板').closest('.ant-form-item') as HTMLElement;
    fireEvent.mouseDown(item.querySelector('.ant-select-selector') as HTMLElement);
    const options = await screen.findAllByText('构建结果', { selector: '.ant-select-item-option-content' });
    await act(async () => fireEvent.click(options[options.length - 1]));
    expect(screen.queryByLabelText('内容')).not.toBeInTheDocument();
    type('变量 project', 'portal');
    type('变量 result', '成功');
    type('变量 branch', 'main');
    expect(screen.getByTestId('template-preview')).toHaveTextContent('portal 构建成功');
    await act(async () => fireEvent.click(sendButton()));
    await waitFor(() => expect(sent(umsApi.createMessage)).not.toEqual([]));
    expect(sent(umsApi.createMessage)[0]?.body).toMatchObject({
      template: '5',
      vars: { project: 'portal', result: '成功', branch: 'main' },
      channel: 1,
    });
    expect(sent(umsApi.createMessage)[0]?.body).not.toHaveProperty('content');
  });

  it('shows the server error and stays on the form', async () => {
    fail(umsApi.createMessage, {
      response: {
        status: 400,
        data: {
          success: false,
          errorCode: 'BAD_REQUEST',
          errorMessage: '定时发送时间不能早于现在',
          data: { sendAt: ['不能早于现在'] },
        },
      },
    });
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    await screen.findByLabelText('内容');
    type('内容', '你好');
    await act(async () => fireEvent.click(sendButton()));
    expect(await screen.findByText('定时发送时间不能早于现在')).toBeInTheDocument();
    expect(await screen.findByText('不能早于现在')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/UMS/createMessage');
  });

  it('without a channel, offers to bind one instead of the form', async () => {
    answer(umsApi.listChannels, channelList([]));
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    expect(await screen.findByTestId('no-channel')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '添加推送渠道' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/UMS\/self\?add=1&back=%2FUMS%2FcreateMessage/);
    expect(screen.queryByLabelText('内容')).not.toBeInTheDocument();
  });
});
