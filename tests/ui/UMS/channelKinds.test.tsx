/**
 * /UMS/self with channels of every kind: the table shows kind, address, security and the 7-day
 * success rate; the add form has a kind selector whose fields follow the kind (only those travel),
 * e-mail is offered only when the server has SMTP; a webhook's header values never come back.
 */
import SelfPage from '@/pages/UMS/self';
import * as umsApi from '@/contract/api/ums';
import { answer, fail, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { channelKinds, channelList, defaultChannel, emailChannel, hookChannel } from './fixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(umsApi.listChannels, channelList([defaultChannel, emailChannel, hookChannel]));
  answer(umsApi.channelKinds, channelKinds());
  answer(umsApi.stats, {
    success: true,
    data: { unread: 0, byStatus: {}, daily: [], channels: [], total: 0 },
  });
  answer(umsApi.createChannel, { success: true, data: { ...emailChannel, id: 9 } });
  answer(umsApi.updateChannel, { success: true, data: hookChannel });
});

const row = (name: string) =>
  screen
    .getAllByText(name)
    .map((e) => e.closest('tr'))
    .find(Boolean) as HTMLElement;
const modal = () => document.querySelector('.ant-modal') as HTMLElement;
const submit = (text: RegExp) =>
  act(async () => fireEvent.click(within(modal()).getByText(text, { selector: 'button span' })));

async function openAdd() {
  await screen.findByText('工作邮箱');
  fireEvent.click(screen.getByText('添加渠道', { selector: 'button span' }));
  await screen.findByText('添加推送渠道', { selector: '.ant-modal-title' });
}

async function pickKind(label: string) {
  const item = within(modal()).getByText('类型').closest('.ant-form-item') as HTMLElement;
  fireEvent.mouseDown(item.querySelector('.ant-select-selector') as HTMLElement);
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  await act(async () => fireEvent.click(options[options.length - 1]));
}

it('lists every channel with its kind, address, security and success rate', async () => {
  renderAt('/UMS/self', <SelfPage />);
  await screen.findByText('工作邮箱');
  expect(row('我的提醒群')).toHaveTextContent('钉钉机器人');
  expect(row('我的提醒群')).toHaveTextContent('加签：已设置');
  expect(row('我的提醒群')).toHaveTextContent('96%（24/25）');
  expect(row('工作邮箱')).toHaveTextContent('电子邮件');
  expect(row('工作邮箱')).toHaveTextContent('me@njit.edu.cn');
  expect(row('工作邮箱')).toHaveTextContent('75%（3/4）');
  expect(row('运维平台')).toHaveTextContent('通用 Webhook');
  expect(row('运维平台')).toHaveTextContent('POST · 1 个请求头');
  expect(row('运维平台')).toHaveTextContent('成功率：暂无');
});

it('adds a WeCom robot: a webhook and nothing else travels', async () => {
  renderAt('/UMS/self', <SelfPage />);
  await openAdd();
  await pickKind('企业微信群机器人');
  expect(within(modal()).getByText(/每分钟最多 20 条；被企业微信限流时暂停 1 分钟/)).toBeInTheDocument();
  expect(within(modal()).queryByText('加签密钥')).not.toBeInTheDocument();
  expect(within(modal()).queryByLabelText('自定义关键词')).not.toBeInTheDocument();
  fireEvent.change(within(modal()).getByLabelText('名称'), { target: { value: '研发群' } });
  fireEvent.change(within(modal()).getByLabelText('Webhook 地址'), {
    target: { value: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx' },
  });
  await submit(/^添\s?加$/);
  await waitFor(() => expect(sent(umsApi.createChannel)).not.toEqual([]));
  expect(sent(umsApi.createChannel)[0]?.body).toEqual({
    kind: 'wecom',
    name: '研发群',
    webhook: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx',
    isDefault: false,
  });
});

it('offers e-mail only when the server has SMTP, and checks the address', async () => {
  answer(umsApi.channelKinds, channelKinds({ email: false }));
  const { unmount } = renderAt('/UMS/self', <SelfPage />);
  await openAdd();
  const item = within(modal()).getByText('类型').closest('.ant-form-item') as HTMLElement;
  fireEvent.mouseDown(item.querySelector('.ant-select-selector') as HTMLElement);
  const option = (await screen.findByText(/电子邮件（服务器没有配置 SMTP_URL/)).closest('.ant-select-item');
  expect(option).toHaveClass('ant-select-item-option-disabled');
  unmount();

  answer(umsApi.channelKinds, channelKinds());
  renderAt('/UMS/self', <SelfPage />);
  await openAdd();
  await pickKind('电子邮件');
  expect(within(modal()).queryByLabelText('Webhook 地址')).not.toBeInTheDocument();
  fireEvent.change(within(modal()).getByLabelText('名称'), { target: { value: '邮箱' } });
  fireEvent.change(within(modal()).getByLabelText('邮箱地址'), { target: { value: 'not-an-address' } });
  await submit(/^添\s?加$/);
  expect(await within(modal()).findByText('邮箱地址格式不正确')).toBeInTheDocument();
  expect(sent(umsApi.createChannel)).toEqual([]);
  fireEvent.change(within(modal()).getByLabelText('邮箱地址'), { target: { value: 'me@njit.edu.cn' } });
  await submit(/^添\s?加$/);
  await waitFor(() => expect(sent(umsApi.createChannel)).not.toEqual([]));
  expect(sent(umsApi.createChannel)[0]?.body).toEqual({
    kind: 'email',
    name: '邮箱',
    email: 'me@njit.edu.cn',
    isDefault: false,
  });
  // The address receives nothing before its owner confirms: the notice says where the mail went.
  expect(
    await screen.findByText(/确认邮件已发送到 me@njit\.edu\.cn：收件人打开邮件中的链接后，才会收到推送/),
  ).toBeInTheDocument();
});

it('an e-mail channel saved whose confirmation mail failed (502) is listed, and the reason shown', async () => {
  fail(umsApi.createChannel, {
    response: {
      status: 502,
      data: { success: false, errorCode: 'MAIL_FAILED', errorMessage: '确认邮件发送失败：渠道已保存但尚未确认' },
    },
  });
  renderAt('/UMS/self', <SelfPage />);
  await openAdd();
  await pickKind('电子邮件');
  fireEvent.change(within(modal()).getByLabelText('名称'), { target: { value: '邮箱' } });
  fireEvent.change(within(modal()).getByLabelText('邮箱地址'), { target: { value: 'me@njit.edu.cn' } });
  const before = sent(umsApi.listChannels).length;
  await submit(/^添\s?加$/);
  expect(await screen.findByText(/确认邮件发送失败/)).toBeInTheDocument();
  await waitFor(() => expect(sent(umsApi.listChannels).length).toBeGreaterThan(before));
});

it('adds a generic webhook with a header and a JSON-path condition', async () => {
  renderAt('/UMS/self', <SelfPage />);
  await openAdd();
  await pickKind('通用 Webhook');
  fireEvent.change(within(modal()).getByLabelText('名称'), { target: { value: '告警平台' } });
  fireEvent.change(within(modal()).getByLabelText('Webhook 地址'), { target: { value: 'https://ops.example.edu/h' } });
  fireEvent.click(within(modal()).getByText('添加请求头'));
  fireEvent.change(await within(modal()).findByLabelText('请求头名称'), { target: { value: 'Authorization' } });
  fireEvent.change(within(modal()).getByLabelText('请求头的值'), { target: { value: 'Bearer abc' } });
  fireEvent.change(within(modal()).getByLabelText('成功条件：JSON 路径'), { target: { value: '$.code' } });
  fireEvent.change(within(modal()).getByLabelText('期望值'), { target: { value: '0' } });
  await submit(/^添\s?加$/);
  await waitFor(() => expect(sent(umsApi.createChannel)).not.toEqual([]));
  expect(sent(umsApi.createChannel)[0]?.body).toEqual({
    kind: 'webhook',
    name: '告警平台',
    webhook: 'https://ops.example.edu/h',
    isDefault: false,
    method: 'POST',
    bodyTemplate: '{"title":"${title}","content":"${content}","time":"${time}","messageId":"${messageId}"}',
    successStatus: '200-299',
    successPath: '$.code',
    successValue: '0',
    perMinute: 60,
    headers: [{ name: 'Authorization', value: 'Bearer abc' }],
  });
});

it('edits a webhook without showing header values: untouched headers are left out', async () => {
  renderAt('/UMS/self', <SelfPage />);
  await screen.findByText('运维平台');
  fireEvent.click(within(row('运维平台')).getByText('编辑'));
  await screen.findByText('编辑渠道「运维平台」');
  expect(modal()).toHaveTextContent('当前：Authorization: Bear…cdef');
  expect(modal()).not.toHaveTextContent('Bearer abc');
  await submit(/^保\s?存$/);
  await waitFor(() => expect(sent(umsApi.updateChannel)).not.toEqual([]));
  const {
    params: { id },
    body,
  } = sent(umsApi.updateChannel)[0]!;
  expect(id).toBe(4);
  expect(body).not.toHaveProperty('headers');
  expect(body).not.toHaveProperty('webhook');
  expect(body).toMatchObject({ name: '运维平台', successPath: '$.code', successValue: '0', method: 'POST' });
});

it('shows the SMTP reply of an e-mail test message', async () => {
  answer(umsApi.testChannel, {
    success: true,
    data: {
      ok: true,
      httpStatus: null,
      errcode: 250,
      errmsg: '250 OK: queued',
      durationMs: 42,
      hint: null,
      detail: null,
    },
  });
  renderAt('/UMS/self', <SelfPage />);
  await screen.findByText('工作邮箱');
  await act(async () => fireEvent.click(within(row('工作邮箱')).getByText('发送测试消息')));
  const result = await screen.findByTestId('test-result');
  expect(screen.getByText('邮件服务器的应答')).toBeInTheDocument();
  expect(result).toHaveTextContent('「工作邮箱」测试消息已送达，请查看邮箱');
  expect(result).toHaveTextContent('SMTP 应答码250');
  expect(result).not.toHaveTextContent('HTTP 状态');
});
