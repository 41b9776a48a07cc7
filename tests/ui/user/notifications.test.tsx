/**
 * The notification centre page and the header's bell: the list with its filters, opening a
 * notification (marked read, then its page), 标为已读 and 全部标为已读, the bell's count and name.
 */
import axe from 'axe-core';
import NotificationBell from '@/components/NotificationBell';
import * as api from '@/contract/api/notifications';
import * as umsApi from '@/contract/api/ums';
import NotificationsPage from '@/pages/user/notifications';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { call } from '@/services/call';
import { answer, fail, sent } from '../api';
import { renderAt } from '../helpers';
import { channelList, defaultChannel, dutyChannel } from '../UMS/fixtures';

jest.mock('@/services/call');
type NotificationItem = import('@/contract').NotificationItem;
type NotificationPreferences = import('@/contract').NotificationPreferences;

const item = (id: number, over: Partial<NotificationItem> = {}): NotificationItem => ({
  id,
  kind: 'ums.failed',
  title: `消息「告警 ${id}」发送失败`,
  body: 'DingTalk 310000：关键词不匹配',
  link: '/UMS/queryMessage',
  createdAt: '2026-01-02T00:30:00.000Z',
  readAt: null,
  ...over,
});

let unread = 2;
let items: NotificationItem[] = [];
beforeEach(() => {
  unread = 2;
  items = [
    item(3),
    item(2, { kind: 'user.new-browser', title: '你的账号在新的浏览器上登录', link: null }),
    item(1, { readAt: '2026-01-01T00:00:00.000Z' }),
  ];
  answer(api.listNotifications, { success: true, data: items, total: items.length, current: 1, pageSize: 10 });
  answer(api.unreadCount, async () => ({ success: true as const, data: { unread } }));
  answer(api.markRead, async ({ body }) => {
    unread -= body.ids.length;
    return { success: true as const, data: { updated: body.ids.length, unread } };
  });
  answer(api.markAllRead, async () => {
    const updated = unread;
    unread = 0;
    return { success: true as const, data: { updated, unread: 0 } };
  });
});

it('lists the notifications with kind, state and time, and the unread count', async () => {
  renderAt('/user/notifications', <NotificationsPage />);
  expect(await screen.findByText('消息「告警 3」发送失败')).toBeInTheDocument();
  expect(screen.getByText('通知（2 条未读）')).toBeInTheDocument();
  const row = screen.getByText('你的账号在新的浏览器上登录').closest('tr')!;
  expect(within(row).getByText('新浏览器登录', { selector: '.ant-tag' })).toBeInTheDocument();
  expect(within(row).getByText('未读')).toBeInTheDocument();
  // No page to open: no 查看.
  expect(within(row).queryByRole('button', { name: '查看' })).toBeNull();
  // 00:30 UTC is 08:30 in Asia/Shanghai.
  expect(within(row).getByText('2026-01-02 08:30')).toBeInTheDocument();
  const read = screen.getByText('消息「告警 1」发送失败').closest('tr')!;
  expect(within(read).getByText('已读')).toBeInTheDocument();
  expect(within(read).queryByRole('button', { name: '标为已读' })).toBeNull();
  expect(sent(api.listNotifications)[0]).toEqual({ query: expect.objectContaining({ current: 1, pageSize: 10 }) });
});

it('opening one marks it read and goes to its page', async () => {
  renderAt('/user/notifications', <NotificationsPage />);
  const row = (await screen.findByText('消息「告警 3」发送失败')).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: '查看' }));
  await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/UMS/queryMessage'));
  expect(sent(api.markRead)).toEqual([{ body: { ids: [3] } }]);
});

it('标为已读 marks one; 全部标为已读 marks the rest and then has nothing left to do', async () => {
  renderAt('/user/notifications', <NotificationsPage />);
  const row = (await screen.findByText('你的账号在新的浏览器上登录')).closest('tr')!;
  fireEvent.click(within(row).getByRole('button', { name: '标为已读' }));
  await waitFor(() => expect(screen.getByText('通知（1 条未读）')).toBeInTheDocument());
  expect(sent(api.markRead)).toEqual([{ body: { ids: [2] } }]);
  fireEvent.click(screen.getByRole('button', { name: /全部标为已读/ }));
  expect(await screen.findByText('已将 1 条通知标为已读')).toBeInTheDocument();
  await waitFor(() => expect(screen.getByRole('button', { name: /全部标为已读/ })).toBeDisabled());
});

it('the bell names the unread count and counts again when a page marks some read', async () => {
  renderAt('/home', <NotificationBell />);
  const bell = await screen.findByRole('link', { name: '通知（2 条未读）' });
  expect(bell).toHaveAttribute('href', '/user/notifications');
  // The count is small text: WCAG AA asks 4.5:1 of its colour on its background.
  const count = within(bell).getByText('2');
  expect(contrast(count.style.color, count.style.backgroundColor)).toBeGreaterThanOrEqual(4.5);
  unread = 0;
  await act(async () => {
    window.dispatchEvent(new Event('portal:notifications-changed'));
  });
  expect(await screen.findByRole('link', { name: '通知' })).toBeInTheDocument();
});

/** WCAG 2.1 contrast ratio of two `rgb(r, g, b)` or `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (c: string) => {
    const rgb = c.startsWith('#')
      ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16))
      : c.match(/\d+/g)!.slice(0, 3).map(Number);
    const [r, g, b] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** EventSource as the browser has it, driven by the test: opened, told events, refused. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, Array<(e: { data: string }) => void>>();
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, fn: (e: { data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  emit(type: string, data: object) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
  /** The server answered something other than a stream (a 401): the browser gives up on it. */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

describe('the bell, live', () => {
  const counted = () => jest.mocked(call).mock.calls.filter(([e]) => e === api.unreadCount).length;
  beforeEach(() => {
    FakeEventSource.made = [];
    (window as unknown as { EventSource: unknown }).EventSource = FakeEventSource;
  });
  afterEach(() => {
    delete (window as unknown as { EventSource?: unknown }).EventSource;
  });

  it('shows the count the stream tells, a new notification included, without asking again', async () => {
    renderAt('/home', <NotificationBell />);
    await screen.findByRole('link', { name: '通知（2 条未读）' });
    const source = FakeEventSource.made.at(-1)!;
    expect(source.url).toBe('/api/notifications/stream');
    const asked = counted();
    act(() => {
      source.open();
      source.emit('unread', { unread: 3 });
    });
    expect(await screen.findByRole('link', { name: '通知（3 条未读）' })).toBeInTheDocument();
    act(() => source.emit('notification', { unread: 4, item: { id: 9, kind: 'ums.failed', title: '消息发送失败' } }));
    expect(await screen.findByRole('link', { name: '通知（4 条未读）' })).toBeInTheDocument();
    act(() => source.emit('unread', { unread: 0 }));
    expect(await screen.findByRole('link', { name: '通知' })).toBeInTheDocument();
    expect(counted()).toBe(asked);
  });

  it('counts by asking again when the server refuses the stream', async () => {
    renderAt('/home', <NotificationBell />);
    await screen.findByRole('link', { name: '通知（2 条未读）' });
    const asked = counted();
    unread = 7;
    act(() => FakeEventSource.made.at(-1)!.refuse());
    expect(await screen.findByRole('link', { name: '通知（7 条未读）' })).toBeInTheDocument();
    expect(counted()).toBe(asked + 1);
  });
});

describe('通知设置', () => {
  const kinds = () => [
    { kind: 'ums.failed' as const, enabled: true, forward: false },
    { kind: 'ocs.balance.low' as const, enabled: false, forward: false },
    { kind: 'user.new-browser' as const, enabled: true, forward: false },
  ];
  const prefs = (over: Partial<NotificationPreferences> = {}) => ({
    success: true as const,
    data: { kinds: kinds(), forwardChannelId: null, ...over },
  });
  const unconfirmedMail = {
    ...dutyChannel,
    id: 3,
    kind: 'email' as const,
    name: '我的邮箱',
    emailConsent: { confirmed: false, confirmedAt: null, sentAt: null, expiresAt: null },
  };
  beforeEach(() => {
    answer(umsApi.listChannels, channelList([defaultChannel, unconfirmedMail]));
  });
  const openDrawer = async () => {
    renderAt('/user/notifications', <NotificationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: /通知设置/ }));
    return screen.findByRole('dialog', { name: '通知设置' });
  };

  it('shows a switch per kind the server lists, by its Chinese name, and saves what was switched', async () => {
    let release!: () => void;
    answer(api.getPreferences, () => new Promise((resolve) => (release = () => resolve(prefs()))));
    answer(api.putPreferences, async ({ body }) => ({
      success: true as const,
      data: {
        kinds: kinds().map((k) => ({ ...k, enabled: body.enabled?.[k.kind] ?? k.enabled })),
        forwardChannelId: null,
      },
    }));
    const drawer = await openDrawer();
    expect(within(drawer).getByLabelText('正在加载通知设置')).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: /保\s*存/ })).toBeDisabled();
    await act(async () => release());

    const failed = within(drawer).getByRole('switch', { name: '推送失败' });
    expect(failed).toBeChecked();
    expect(within(drawer).getByRole('switch', { name: '积分余额不足' })).not.toBeChecked();
    // Only what the server offered: no administrators' kinds for this user.
    expect(within(drawer).queryByRole('switch', { name: '新的纠错反馈' })).toBeNull();
    // No channel picked: nothing can be forwarded yet; a failed delivery never can.
    expect(within(drawer).getByRole('switch', { name: '转发「新浏览器登录」' })).toBeDisabled();
    expect(within(drawer).queryByRole('switch', { name: '转发「推送失败」' })).toBeNull();

    // Operable from the keyboard: antd's switch turns off with the left arrow and on with the right.
    failed.focus();
    fireEvent.keyDown(failed, { key: 'ArrowLeft', keyCode: 37, which: 37 });
    expect(failed).not.toBeChecked();
    fireEvent.click(within(drawer).getByRole('switch', { name: '积分余额不足' }));
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('通知设置已保存')).toBeInTheDocument();
    expect(sent(api.putPreferences)).toEqual([
      {
        body: {
          enabled: { 'ums.failed': false, 'ocs.balance.low': true, 'user.new-browser': true },
          forward: { 'ocs.balance.low': false, 'user.new-browser': false },
          forwardChannelId: null,
        },
      },
    ]);
    // Closed (jsdom keeps the closed drawer's markup: no animation ends there).
    await waitFor(() => expect(drawer.closest('.ant-drawer')).not.toHaveClass('ant-drawer-open'));
  });

  it('forwards to a channel picked from mine; an unconfirmed address cannot be picked', async () => {
    answer(api.getPreferences, prefs());
    answer(api.putPreferences, async ({ body }) => prefs({ forwardChannelId: body.forwardChannelId ?? null }));
    const drawer = await openDrawer();
    const picker = await within(drawer).findByRole('combobox', { name: '转发到推送渠道' });
    fireEvent.mouseDown(picker);
    const mail = await screen.findByTitle('我的邮箱（电子邮件，邮箱未确认）');
    expect(mail).toHaveClass('ant-select-item-option-disabled');
    fireEvent.click(await screen.findByTitle('我的提醒群（钉钉机器人）'));
    const forward = within(drawer).getByRole('switch', { name: '转发「新浏览器登录」' });
    await waitFor(() => expect(forward).toBeEnabled());
    // A kind not received cannot be forwarded.
    expect(within(drawer).getByRole('switch', { name: '转发「积分余额不足」' })).toBeDisabled();
    fireEvent.click(forward);
    fireEvent.click(within(drawer).getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('通知设置已保存')).toBeInTheDocument();
    expect(sent(api.putPreferences)).toEqual([
      {
        body: {
          enabled: { 'ums.failed': true, 'ocs.balance.low': false, 'user.new-browser': true },
          forward: { 'ocs.balance.low': false, 'user.new-browser': true },
          forwardChannelId: defaultChannel.id,
        },
      },
    ]);
  });

  it('a failed load offers to load again; 取消 saves nothing', async () => {
    fail(api.getPreferences, new Error('network'));
    const drawer = await openDrawer();
    expect(await within(drawer).findByText('通知设置加载失败')).toBeInTheDocument();
    answer(api.getPreferences, prefs());
    fireEvent.click(within(drawer).getByRole('button', { name: '重新加载' }));
    fireEvent.click(await within(drawer).findByRole('switch', { name: '新浏览器登录' }));
    fireEvent.click(within(drawer).getByRole('button', { name: /取\s*消/ }));
    await waitFor(() => expect(drawer.closest('.ant-drawer')).not.toHaveClass('ant-drawer-open'));
    expect(sent(api.putPreferences)).toEqual([]);
  });

  it('the drawer has no axe violations', async () => {
    answer(api.getPreferences, prefs({ forwardChannelId: defaultChannel.id }));
    const drawer = await openDrawer();
    await within(drawer).findByRole('switch', { name: '推送失败' });
    const result = await axe.run(drawer, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });
});
