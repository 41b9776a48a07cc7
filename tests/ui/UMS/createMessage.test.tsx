import CreateMessagePage from '@/pages/UMS/createMessage';
import { createMessage, fetchChannels } from '@/services/ums';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../helpers';
import { channelList } from './fixtures';

jest.mock('@/services/ums', () => ({ createMessage: jest.fn(), fetchChannels: jest.fn() }));

const createMock = jest.mocked(createMessage);

beforeEach(() => {
  createMock.mockReset();
  jest.mocked(fetchChannels).mockResolvedValue(channelList());
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
    expect(createMock).not.toHaveBeenCalled();
  });

  it('sends to the preselected default channel and opens the new message', async () => {
    createMock.mockResolvedValue({ success: true, data: { id: 42, status: 'queued' } });
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    await screen.findByLabelText('内容');
    expect(screen.getByText('我的提醒群（默认）')).toBeInTheDocument();
    type('标题', '构建完成');
    type('内容', '**全部**测试通过');
    await act(async () => fireEvent.click(sendButton()));
    await waitFor(() => expect(createMock).toHaveBeenCalled());
    expect(createMock).toHaveBeenCalledWith(
      { title: '构建完成', content: '**全部**测试通过', type: 'markdown', channel: 1, sendAt: undefined },
      { skipErrorHandler: true },
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/UMS/queryMessage?id=42'));
  });

  it('shows the server error and stays on the form', async () => {
    createMock.mockRejectedValue({
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
    jest.mocked(fetchChannels).mockResolvedValue(channelList([]));
    renderAt('/UMS/createMessage', <CreateMessagePage />);
    expect(await screen.findByTestId('no-channel')).toBeInTheDocument();
    expect(screen.getByText('绑定钉钉机器人').closest('a')).toHaveAttribute('href', '/UMS/self');
    expect(screen.queryByLabelText('内容')).not.toBeInTheDocument();
  });
});
