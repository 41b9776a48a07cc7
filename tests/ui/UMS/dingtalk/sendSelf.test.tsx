import SendSelfPage from '@/pages/UMS/dingtalk/sendSelf';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { answer, sent } from '../../api';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderAt } from '../../helpers';
import { channelList, page, summary } from '../fixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(umsApi.listChannels, channelList());
  answer(umsApi.listMessages, page([summary(1, 'delivered', '构建完成')]));
});

describe('send to my DingTalk', () => {
  it('sends the box as text to the default channel and refreshes the last 5 sends', async () => {
    answer(umsApi.createMessage, { success: true, data: { id: 9, status: 'queued' } });
    renderAt('/UMS/dingtalk/sendSelf', <SendSelfPage />);
    expect(await screen.findByText('构建完成')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(umsApi.listMessages, { query: { current: 1, pageSize: 5 } });
    expect(screen.getByText(/渠道：我的提醒群/)).toBeInTheDocument();

    answer(umsApi.listMessages, page([summary(9, 'delivered', '买牛奶'), summary(1, 'delivered', '构建完成')]));
    fireEvent.change(await screen.findByLabelText('内容'), { target: { value: '记得买牛奶' } });
    await act(async () => fireEvent.click(screen.getByText('发送到我的钉钉', { selector: 'button span' })));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(umsApi.createMessage, {
        body: { title: '', content: '记得买牛奶', type: 'text' },
      }),
    );
    expect(await screen.findByText('买牛奶')).toBeInTheDocument();
    expect(sent(umsApi.listMessages)).toHaveLength(2);
    expect((screen.getByLabelText('内容') as HTMLTextAreaElement).value).toBe('');
  });

  it('without a channel, 添加推送渠道 opens the add dialog on /UMS/self, to come back here after adding', async () => {
    answer(umsApi.listChannels, channelList([]));
    answer(umsApi.listMessages, page([]));
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
