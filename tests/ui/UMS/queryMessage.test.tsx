import { dayEnd, dayStart } from '@/pages/UMS/components/days';
import QueryMessagePage from '@/pages/UMS/queryMessage';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { channelList, failedDetail, page, summary, unreachableDetail } from './fixtures';

jest.mock('@/services/call');

const rows = [
  summary(4, 'queued', '明早例会'),
  summary(3, 'retrying', '日报'),
  summary(2, 'failed', '服务器告警'),
  summary(1, 'delivered', '构建完成'),
  summary(5, 'cancelled', '不用发了'),
];

beforeEach(() => {
  jest.clearAllMocks();
  answer(umsApi.markRead, { success: true, data: { updated: 1, unread: 0 } });
  answer(umsApi.markAllRead, { success: true, data: { updated: 3, unread: 0 } });
  answer(umsApi.listChannels, channelList());
  answer(umsApi.listMessages, page(rows));
  answer(umsApi.getMessage, { success: true, data: failedDetail });
});

const row = (title: string) => screen.getByText(title).closest('tr') as HTMLElement;

describe('inbox', () => {
  it('marks unread messages; opening one reads it; 全部标为已读 reads the rest', async () => {
    answer(
      umsApi.listMessages,
      page([{ ...summary(2, 'failed', '服务器告警'), readAt: null }, summary(1, 'delivered', '构建完成')]),
    );
    answer(umsApi.getMessage, { success: true, data: { ...failedDetail, readAt: null } });
    renderAt('/UMS/queryMessage', <QueryMessagePage />);
    await screen.findByText('构建完成');
    expect(within(row('服务器告警')).getByTestId('unread')).toHaveTextContent('未读');
    expect(within(row('构建完成')).queryByTestId('unread')).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('服务器告警'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(umsApi.markRead, { params: { id: 2 } }, { skipErrorHandler: true }),
    );
    await waitFor(() => expect(sent(umsApi.listMessages)).toHaveLength(2)); // the list learns of it
    await new Promise((r) => setTimeout(r, 50));
    expect(sent(umsApi.markRead)).toHaveLength(1); // once, however often the page renders
    await act(async () => fireEvent.click(screen.getByText('全部标为已读', { selector: 'button span' })));
    expect(sent(umsApi.markAllRead)).not.toEqual([]);
    expect(await screen.findByText('已将 3 条消息标为已读')).toBeInTheDocument();
  });
});

describe('digest', () => {
  it('a message merged into a digest says so and links to the digest', async () => {
    answer(umsApi.getMessage, {
      success: true,
      data: { ...failedDetail, status: 'merged', digestId: 77, lastError: null, attemptLog: [] },
    });
    renderAt('/UMS/queryMessage?id=2', <QueryMessagePage />);
    const link = await screen.findByText('摘要 #77');
    expect(link.closest('a')).toHaveAttribute('href', '/UMS/queryMessage?id=77');
    expect(screen.getAllByText('已合并到摘要').length).toBeGreaterThan(0);
  });
});

describe('message list', () => {
  it('asks for page 1 of 10 and offers resend only for failed, cancel only for queued or retrying', async () => {
    renderAt('/UMS/queryMessage', <QueryMessagePage />);
    await screen.findByText('构建完成');
    expect(call).toHaveBeenCalledWith(umsApi.listMessages, {
      query: expect.objectContaining({ current: 1, pageSize: 10 }),
    });
    const actions = (title: string) => ({
      resend: within(row(title)).queryByText('重新发送'),
      cancel: within(row(title)).queryByText('取消发送'),
    });
    expect(actions('服务器告警').resend).toBeInTheDocument();
    expect(actions('服务器告警').cancel).not.toBeInTheDocument();
    for (const t of ['明早例会', '日报']) {
      expect(actions(t).cancel).toBeInTheDocument();
      expect(actions(t).resend).not.toBeInTheDocument();
    }
    for (const t of ['构建完成', '不用发了']) {
      expect(actions(t).cancel).not.toBeInTheDocument();
      expect(actions(t).resend).not.toBeInTheDocument();
    }
    expect(within(row('服务器告警')).getByText('失败')).toBeInTheDocument();
  });

  it('cancels only after confirmation, then reloads the list', async () => {
    answer(umsApi.cancelMessage, { success: true, data: { id: 4, status: 'cancelled' } });
    renderAt('/UMS/queryMessage', <QueryMessagePage />);
    await screen.findByText('明早例会');
    fireEvent.click(within(row('明早例会')).getByText('取消发送'));
    expect(await screen.findByText('取消后不会再投递，且不能恢复。')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('不取消', { selector: 'button span' })));
    expect(sent(umsApi.cancelMessage)).toEqual([]);

    fireEvent.click(within(row('明早例会')).getByText('取消发送'));
    const tip = (await screen.findAllByText('取消后不会再投递，且不能恢复。'))
      .at(-1)!
      .closest('.ant-popover') as HTMLElement;
    jest.mocked(call).mockClear();
    await act(async () => fireEvent.click(within(tip).getByText('确认取消', { selector: 'button span' })));
    expect(call).toHaveBeenCalledWith(umsApi.cancelMessage, { params: { id: 4 } });
    await waitFor(() => expect(sent(umsApi.listMessages)).not.toEqual([]));
  });

  it('resends a failed message after confirmation', async () => {
    answer(umsApi.resendMessage, { success: true, data: { id: 2, status: 'queued' } });
    renderAt('/UMS/queryMessage', <QueryMessagePage />);
    await screen.findByText('服务器告警');
    fireEvent.click(within(row('服务器告警')).getByText('重新发送'));
    const tip = (await screen.findByText('消息会回到发送队列，重新开始投递。')).closest('.ant-popover') as HTMLElement;
    expect(sent(umsApi.resendMessage)).toEqual([]);
    await act(async () => fireEvent.click(within(tip).getByText('重新发送', { selector: 'button span' })));
    expect(call).toHaveBeenCalledWith(umsApi.resendMessage, { params: { id: 2 } });
  });

  it('passes the trimmed keyword and the status filter to the server', async () => {
    renderAt('/UMS/queryMessage', <QueryMessagePage />);
    await screen.findByText('构建完成');
    jest.mocked(call).mockClear();
    fireEvent.change(screen.getByPlaceholderText('搜索标题和内容'), { target: { value: ' 告警 ' } });
    const selects = document.querySelectorAll('.ant-pro-table-search .ant-select-selector');
    fireEvent.mouseDown(selects[1]);
    fireEvent.click(await screen.findByText('等待重试', { selector: '.ant-select-item-option-content' }));
    await act(async () => fireEvent.click(screen.getByText('查 询', { selector: 'button span' })));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(umsApi.listMessages, {
        query: expect.objectContaining({ keyword: '告警', status: 'retrying', current: 1 }),
      }),
    );
  });
});

describe('date filter', () => {
  it('turns calendar days of Asia/Shanghai into the instants the API compares', () => {
    expect(dayStart('2025-01-02')).toBe('2025-01-01T16:00:00.000Z');
    expect(dayEnd('2025-01-02')).toBe('2025-01-02T15:59:59.999Z');
  });
});

describe('message detail drawer', () => {
  it('opens from ?id= with the content and the attempts timeline, errcode and errmsg included', async () => {
    renderAt('/UMS/queryMessage?id=2', <QueryMessagePage />);
    expect(await screen.findByText('消息 #2')).toBeInTheDocument();
    expect(call).toHaveBeenCalledWith(umsApi.getMessage, { params: { id: 2 } }, { skipErrorHandler: true });
    const drawer = screen.getByText('消息 #2').closest('.ant-drawer-content') as HTMLElement;
    const content = within(drawer).getByTestId('message-content');
    expect(content).toHaveTextContent('CPU 超过 90%'); // markdown rendered, not shown as source
    expect(content.querySelector('strong')).toHaveTextContent('90%');
    const attempts = within(drawer).getAllByTestId('attempt');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toHaveTextContent('HTTP 502');
    expect(attempts[0]).toHaveTextContent('临时失败');
    expect(attempts[0]).toHaveTextContent('errmsg：Bad Gateway');
    // 04:06 UTC is 12:06 in Asia/Shanghai.
    expect(attempts[1]).toHaveTextContent('2025-01-02 12:06');
    expect(attempts[1]).toHaveTextContent('永久失败');
    expect(attempts[1]).toHaveTextContent('errcode 310000');
    expect(attempts[1]).toHaveTextContent('errmsg：keywords not in content');
    expect(attempts[1]).toHaveTextContent('耗时 143 ms');
    expect(within(drawer).getByText('重新发送')).toBeInTheDocument();
    expect(within(drawer).queryByText('取消发送')).not.toBeInTheDocument();
  });

  it('names where a message came from: a forwarded notification of the portal', async () => {
    answer(umsApi.getMessage, { success: true, data: { ...failedDetail, source: 'notification' } });
    renderAt('/UMS/queryMessage?id=2', <QueryMessagePage />);
    expect(await screen.findByText('消息 #2')).toBeInTheDocument();
    const drawer = screen.getByText('消息 #2').closest('.ant-drawer-content') as HTMLElement;
    expect(within(drawer).getByText('门户通知转发')).toBeInTheDocument();
  });

  it('shows a send that never reached DingTalk in Chinese, with Node’s words only behind 详情', async () => {
    answer(umsApi.getMessage, { success: true, data: unreachableDetail });
    renderAt('/UMS/queryMessage?id=3', <QueryMessagePage />);
    expect(await screen.findByText('消息 #3')).toBeInTheDocument();
    const drawer = screen.getByText('消息 #3').closest('.ant-drawer-content') as HTMLElement;
    const [attempt] = within(drawer).getAllByTestId('attempt');
    expect(attempt).toHaveTextContent('HTTP 无应答');
    expect(attempt).toHaveTextContent('网络错误：无法连接钉钉服务器');
    expect(attempt).not.toHaveTextContent('errmsg');
    expect(drawer).not.toHaveTextContent('ECONNREFUSED');
    expect(drawer).not.toHaveTextContent('fetch failed');
    fireEvent.click(within(attempt).getByText('详情'));
    expect(within(attempt).getByTestId('error-detail')).toHaveTextContent(
      'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('opens from a title click and closes back to the plain list', async () => {
    renderAt('/UMS/queryMessage', <QueryMessagePage />);
    fireEvent.click(await screen.findByText('服务器告警'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/UMS/queryMessage?id=2'));
    expect(await screen.findByText('消息 #2')).toBeInTheDocument();
    fireEvent.click(document.querySelector('.ant-drawer-close') as HTMLElement);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/UMS/queryMessage'));
  });
});
