import SendSelfPage from '@/pages/UMS/dingtalk/sendSelf';
import { createMessage, fetchChannels, fetchMessages } from '@/services/ums';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { channelList, page, summary } from '../fixtures';

jest.mock('@/services/ums', () => ({ createMessage: jest.fn(), fetchChannels: jest.fn(), fetchMessages: jest.fn() }));

const createMock = jest.mocked(createMessage);
const listMock = jest.mocked(fetchMessages);

beforeEach(() => {
  jest.clearAllMocks();
  jest.mocked(fetchChannels).mockResolvedValue(channelList());
  listMock.mockResolvedValue(page([summary(1, 'delivered', '构建完成')]));
});

describe('send to my DingTalk', () => {
  it('sends the box as text to the default channel and refreshes the last 5 sends', async () => {
    createMock.mockResolvedValue({ success: true, data: { id: 9, status: 'queued' } });
    renderAt('/UMS/dingtalk/sendSelf', <SendSelfPage />);
    expect(await screen.findByText('构建完成')).toBeInTheDocument();
    expect(listMock).toHaveBeenCalledWith({ current: 1, pageSize: 5 });
    expect(screen.getByText(/渠道：我的提醒群/)).toBeInTheDocument();

    listMock.mockResolvedValue(page([summary(9, 'delivered', '买牛奶'), summary(1, 'delivered', '构建完成')]));
    fireEvent.change(await screen.findByLabelText('内容'), { target: { value: '记得买牛奶' } });
    await act(async () => fireEvent.click(screen.getByText('发送到我的钉钉', { selector: 'button span' })));
    await waitFor(() => expect(createMock).toHaveBeenCalledWith({ title: '', content: '记得买牛奶', type: 'text' }));
    expect(await screen.findByText('买牛奶')).toBeInTheDocument();
    expect(listMock).toHaveBeenCalledTimes(2);
    expect((screen.getByLabelText('内容') as HTMLTextAreaElement).value).toBe('');
  });

  it('without a channel, 添加推送渠道 opens the add dialog on /UMS/self, to come back here after adding', async () => {
    jest.mocked(fetchChannels).mockResolvedValue(channelList([]));
    listMock.mockResolvedValue(page([]));
    renderAt('/UMS/dingtalk/sendSelf?x=1', <SendSelfPage />);
    expect(await screen.findByTestId('no-channel')).toBeInTheDocument();
    expect(screen.queryByText('发送到我的钉钉')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '添加推送渠道' }));
    expect(screen.getByTestId('location')).toHaveTextContent(
      '/UMS/self?add=1&back=%2FUMS%2Fdingtalk%2FsendSelf%3Fx%3D1',
    );
    expect(await screen.findByText('还没有发送过消息')).toBeInTheDocument();
  });
});
