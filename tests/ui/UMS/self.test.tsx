import SelfPage from '@/pages/UMS/self';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { answer, callsOf, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { channelKinds, channelList, defaultChannel, dutyChannel, emailChannel, pendingEmailChannel } from './fixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(umsApi.callbackSecret, { success: true, data: { secret: 'whsec_x', createdAt: '' } });
  answer(umsApi.listChannels, channelList());
  answer(umsApi.channelKinds, channelKinds());
  answer(umsApi.stats, {
    success: true,
    data: { unread: 0, byStatus: { delivered: 7, failed: 2, queued: 1 }, daily: [], channels: [], total: 10 },
  });
  answer(umsApi.updateChannel, { success: true, data: defaultChannel });
});

const row = (name: string) =>
  screen
    .getAllByText(name)
    .map((e) => e.closest('tr'))
    .find(Boolean) as HTMLElement;
const submitModal = (text: RegExp) =>
  act(async () =>
    fireEvent.click(
      within(document.querySelector('.ant-modal') as HTMLElement).getByText(text, { selector: 'button span' }),
    ),
  );

async function openEdit(name: string) {
  await screen.findByText(name);
  fireEvent.click(within(row(name)).getByText('编辑'));
  return screen.findByText(`编辑渠道「${name}」`);
}

/** In the open add dialog, a DingTalk robot named 新群 filled in; the dialog. */
async function fillNewRobot(): Promise<HTMLElement> {
  const modal = (await screen.findByText('添加推送渠道', { selector: '.ant-modal-title' })).closest(
    '.ant-modal',
  ) as HTMLElement;
  fireEvent.change(within(modal).getByLabelText('名称'), { target: { value: '新群' } });
  fireEvent.change(within(modal).getByLabelText('Webhook 地址'), {
    target: { value: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789' },
  });
  return modal;
}

/** The add dialog is open: a DingTalk robot named 新群 is filled in and added. */
async function addRobotInOpenDialog() {
  await fillNewRobot();
  await submitModal(/^添\s?加$/);
  await waitFor(() => expect(sent(umsApi.createChannel)).not.toEqual([]));
}

describe('channel list', () => {
  it('lists robots with the default marked and secrets never shown, only whether one is set', async () => {
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('我的提醒群');
    expect(within(row('我的提醒群')).getByText('默认')).toBeInTheDocument();
    expect(within(row('我的提醒群')).getByText('已设置')).toBeInTheDocument();
    expect(within(row('值班群')).getByText('未设置')).toBeInTheDocument();
    expect(within(row('值班群')).getByText('设为默认')).toBeInTheDocument();
    expect(within(row('我的提醒群')).queryByText('设为默认')).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('SEC8');
    // Personal statistics and the way to a ums:send token.
    expect(await screen.findByText('生成 ums:send 令牌')).toBeInTheDocument();
    expect(screen.getByText('生成 ums:send 令牌').closest('a')).toHaveAttribute(
      'href',
      '/user/tokenGen?scope=ums:send',
    );
  });

  it('keeps 编辑 and 删除 in view: the action column sticks to the right, the webhook is cut instead', async () => {
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('值班群');
    const header = screen.getByText('操作', { selector: 'th' });
    expect(header).toHaveClass('ant-table-cell-fix-right');
    for (const name of ['我的提醒群', '值班群']) {
      for (const action of ['发送测试消息', '编辑', '删除']) {
        expect(within(row(name)).getByText(action).closest('td')).toHaveClass('ant-table-cell-fix-right');
      }
    }
    // The masked token at the end of the webhook is what tells robots apart: it is always shown.
    expect(row('我的提醒群')).toHaveTextContent('=3f9a…c1d2');
    expect(row('值班群')).toHaveTextContent('=88ab…07ef');
  });

  it('offers to add a first channel when there is none', async () => {
    answer(umsApi.listChannels, channelList([]));
    renderAt('/UMS/self', <SelfPage />);
    expect(await screen.findByText(/还没有推送渠道/)).toBeInTheDocument();
    expect(screen.getByText('添加渠道', { selector: 'button span' })).toBeInTheDocument();
  });

  it('shows DingTalk’s own errcode and errmsg for a test message, with our hint', async () => {
    answer(umsApi.testChannel, {
      success: true,
      data: {
        ok: false,
        httpStatus: 200,
        errcode: 310000,
        errmsg: 'keywords not in content',
        durationMs: 164,
        hint: '消息中没有机器人设置的关键词',
        detail: null,
      },
    });
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('值班群');
    await act(async () => fireEvent.click(within(row('值班群')).getByText('发送测试消息')));
    expect(call).toHaveBeenCalledWith(umsApi.testChannel, { params: { id: 2 } });
    const result = await screen.findByTestId('test-result');
    expect(result).toHaveTextContent('「值班群」测试消息发送失败');
    expect(within(result).getByText('310000')).toBeInTheDocument();
    expect(within(result).getByText('keywords not in content')).toBeInTheDocument();
    expect(within(result).getByText('消息中没有机器人设置的关键词')).toBeInTheDocument();
  });

  it('says in Chinese that DingTalk could not be reached; the technical detail waits behind 详情', async () => {
    answer(umsApi.testChannel, {
      success: true,
      data: {
        ok: false,
        httpStatus: null,
        errcode: null,
        errmsg: '网络错误：无法连接钉钉服务器',
        durationMs: 3,
        hint: null,
        detail: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
      },
    });
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('值班群');
    await act(async () => fireEvent.click(within(row('值班群')).getByText('发送测试消息')));
    const result = await screen.findByTestId('test-result');
    // The reason leads (alert) and is in the table; no English from Node until asked for.
    expect(within(result).getAllByText('网络错误：无法连接钉钉服务器')).toHaveLength(2);
    expect(within(result).getByText('无应答')).toBeInTheDocument();
    expect(result).not.toHaveTextContent('ECONNREFUSED');
    expect(within(result).queryByText('errmsg')).not.toBeInTheDocument();
    fireEvent.click(within(result).getByText('详情'));
    expect(within(result).getByTestId('error-detail')).toHaveTextContent(
      'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
    );
    fireEvent.click(within(result).getByText('收起详情'));
    expect(within(result).queryByTestId('error-detail')).not.toBeInTheDocument();
  });

  it('marks an e-mail channel not yet confirmed 待确认, offers 重新发送确认邮件 instead of a test, and resends', async () => {
    answer(umsApi.listChannels, channelList([defaultChannel, emailChannel, pendingEmailChannel]));
    answer(umsApi.resendConfirmation, { success: true, data: pendingEmailChannel });
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('家人邮箱');
    expect(within(row('家人邮箱')).getByText('待确认')).toBeInTheDocument();
    expect(within(row('家人邮箱')).queryByText('发送测试消息')).not.toBeInTheDocument();
    expect(within(row('工作邮箱')).queryByText('待确认')).not.toBeInTheDocument();
    expect(within(row('工作邮箱')).queryByText('重新发送确认邮件')).not.toBeInTheDocument();
    expect(within(row('工作邮箱')).getByText('发送测试消息')).toBeInTheDocument();
    await act(async () => fireEvent.click(within(row('家人邮箱')).getByText('重新发送确认邮件')));
    expect(call).toHaveBeenCalledWith(umsApi.resendConfirmation, { params: { id: 5 } });
    expect(await screen.findByText(/确认邮件已发送到 family@example\.org/)).toBeInTheDocument();
    await waitFor(() => expect(sent(umsApi.listChannels)).toHaveLength(2));
  });

  it('deletes only after confirmation', async () => {
    answer(umsApi.deleteChannel, { success: true });
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('值班群');
    fireEvent.click(within(row('值班群')).getByText('删除'));
    const tip = (await screen.findByText('删除渠道「值班群」？')).closest('.ant-popover') as HTMLElement;
    expect(sent(umsApi.deleteChannel)).toEqual([]);
    await act(async () => fireEvent.click(within(tip).getByText(/^删\s?除$/, { selector: 'button span' })));
    expect(call).toHaveBeenCalledWith(umsApi.deleteChannel, { params: { id: 2 } });
  });
});

describe('channel form', () => {
  it('edits without showing the secret back; an untouched secret is left out of the request', async () => {
    renderAt('/UMS/self', <SelfPage />);
    await openEdit('我的提醒群');
    const modal = document.querySelector('.ant-modal') as HTMLElement;
    const secret = within(modal).getByPlaceholderText('已设置，留空保持不变') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(within(modal).getByText('已设置')).toBeInTheDocument();
    expect((within(modal).getByPlaceholderText('留空保持不变') as HTMLInputElement).value).toBe('');
    expect(modal).not.toHaveTextContent('SEC8');
    fireEvent.change(within(modal).getByLabelText('名称'), { target: { value: '提醒群' } });
    await submitModal(/^保\s?存$/);
    await waitFor(() => expect(sent(umsApi.updateChannel)).not.toEqual([]));
    const {
      params: { id },
      body,
    } = sent(umsApi.updateChannel)[0]!;
    expect(id).toBe(1);
    expect(body).toEqual({ name: '提醒群', keyword: '' });
    expect(body).not.toHaveProperty('secret');
    expect(body).not.toHaveProperty('webhook');
  });

  it('移除加签 sends an empty secret', async () => {
    renderAt('/UMS/self', <SelfPage />);
    await openEdit('我的提醒群');
    const modal = document.querySelector('.ant-modal') as HTMLElement;
    fireEvent.click(within(modal).getByText('移除加签'));
    await waitFor(() => expect(within(modal).getByPlaceholderText('已设置，留空保持不变')).toBeDisabled());
    await submitModal(/^保\s?存$/);
    await waitFor(() => expect(sent(umsApi.updateChannel)).not.toEqual([]));
    expect(sent(umsApi.updateChannel)[0]?.body).toMatchObject({ secret: '' });
  });

  it('sends a newly typed secret, and offers no 移除加签 for a channel without one', async () => {
    renderAt('/UMS/self', <SelfPage />);
    await openEdit('值班群');
    const modal = document.querySelector('.ant-modal') as HTMLElement;
    expect(within(modal).queryByText('移除加签')).not.toBeInTheDocument();
    expect(within(modal).getByDisplayValue('告警')).toBeInTheDocument();
    fireEvent.change(within(modal).getByPlaceholderText('可选，SEC 开头'), { target: { value: 'SECnew123' } });
    await submitModal(/^保\s?存$/);
    await waitFor(() => expect(sent(umsApi.updateChannel)).not.toEqual([]));
    expect(callsOf(umsApi.updateChannel)[0]).toEqual([
      { params: { id: 2 }, body: { name: '值班群', keyword: '告警', secret: 'SECnew123' } },
      { skipErrorHandler: true },
    ]);
  });

  it('sent here to add a channel: the dialog is open, and after adding the user goes back', async () => {
    answer(umsApi.createChannel, { success: true, data: { ...dutyChannel, id: 3, name: '新群' } });
    answer(umsApi.listChannels, channelList([]));
    renderAt('/UMS/self?add=1&back=%2FUMS%2Fdingtalk%2FsendSelf%3Fx%3D1', <SelfPage />);
    await addRobotInOpenDialog();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/UMS\/dingtalk\/sendSelf\?x=1$/));
  });

  it('sent here to add a channel and closed without adding: stays, the request gone from the address', async () => {
    answer(umsApi.listChannels, channelList([]));
    renderAt('/UMS/self?add=1&back=%2FUMS%2Foverview', <SelfPage />);
    const modal = (await screen.findByText('添加推送渠道', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    fireEvent.click(within(modal).getByText(/^取\s?消$/, { selector: 'button span' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/UMS\/self$/));
    expect(sent(umsApi.createChannel)).toEqual([]);
  });

  it('refuses to go back to another site after adding', async () => {
    answer(umsApi.createChannel, { success: true, data: { ...dutyChannel, id: 3, name: '新群' } });
    answer(umsApi.listChannels, channelList([]));
    renderAt('/UMS/self?add=1&back=https%3A%2F%2Fevil.example%2F', <SelfPage />);
    await addRobotInOpenDialog();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/home$/));
  });

  it('adds a DingTalk robot (the default kind) and checks the secret format first', async () => {
    answer(umsApi.createChannel, { success: true, data: { ...dutyChannel, id: 3, name: '新群' } });
    renderAt('/UMS/self', <SelfPage />);
    await screen.findByText('我的提醒群');
    fireEvent.click(screen.getByText('添加渠道', { selector: 'button span' }));
    const modal = await fillNewRobot();
    fireEvent.change(within(modal).getByPlaceholderText('可选，SEC 开头'), { target: { value: 'abc' } });
    await submitModal(/^添\s?加$/);
    expect(await within(modal).findByText('加签密钥应以 SEC 开头')).toBeInTheDocument();
    expect(sent(umsApi.createChannel)).toEqual([]);
    fireEvent.change(within(modal).getByPlaceholderText('可选，SEC 开头'), { target: { value: 'SECabc123' } });
    await submitModal(/^添\s?加$/);
    await waitFor(() => expect(sent(umsApi.createChannel)).not.toEqual([]));
    expect(sent(umsApi.createChannel)[0]?.body).toEqual({
      kind: 'dingtalk',
      name: '新群',
      webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789',
      secret: 'SECabc123',
      isDefault: false,
    });
  });
});
