/**
 * The shell's page tabs in jsdom (Umi's TestBrowser: real routes, layout, access): a page's state
 * survives switching tabs without a refetch, the tabs and a form's draft survive a reload, the tab
 * menu's actions, closing a tab with unsaved input asks first, and tabs of pages the user may no
 * longer open do not come back.
 */
import { TestBrowser } from '@@/testBrowser';
import * as umsApi from '@/contract/api/ums';
import * as userApi from '@/contract/api/user';
import { followUser } from '@/components/preferences/store';
import { endSession } from '@/components/session';
import { forgetDraft } from '@/components/tabs/drafts';
import { panelIdOf } from '@/components/tabs/tabIds';
import { probeCurrentUser } from '@/services/probes';
import axe from 'axe-core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { answer, sent } from '../api';
import { channelList, page, summary } from '../UMS/fixtures';

jest.mock('@/services/call');
jest.mock('@/services/probes');

const UID = 5;
const asUser = (roles: ('admin' | 'njit')[] = []) =>
  jest.mocked(probeCurrentUser).mockResolvedValue({
    success: true,
    data: { uid: UID, username: 'carol', nickname: null, avatar: null, roles },
  });

beforeEach(() => {
  answer(userApi.putPreferences, async ({ body }) => ({ success: true as const, data: body }));
  answer(umsApi.listChannels, channelList());
  answer(umsApi.listMessages, page([]));
  answer(umsApi.listTemplates, { success: true, data: [] });
});

afterEach(() => {
  act(() => followUser(null));
  // A new page in a browser starts with no draft in memory.
  forgetDraft(UID, '/UMS/dingtalk/sendSelf');
  localStorage.clear();
  sessionStorage.clear();
});

function open(pathname: string, search = '') {
  const historyRef: { current: any } = { current: undefined };
  const view = render(<TestBrowser location={{ pathname, search }} historyRef={historyRef} />);
  return { history: historyRef, ...view };
}

const strip = () => screen.getByRole('tablist', { name: '已打开的页面' });
const tabNames = () =>
  within(strip())
    .getAllByRole('tab')
    .map((t) => t.getAttribute('aria-label'));
/** 发送给自己's box (创建消息 has a 内容 too). */
const contentBox = async () =>
  (await screen.findByPlaceholderText('想提醒自己的事……', {}, { timeout: 15000 })) as HTMLTextAreaElement;

describe('the page tabs', () => {
  it('keep a form draft and do not fetch again when switching back', async () => {
    asUser();
    const { history } = open('/UMS/dingtalk/sendSelf');
    fireEvent.change(await contentBox(), { target: { value: '记得买牛奶' } });
    const fetched = sent(umsApi.listChannels).length;

    act(() => history.current.push('/UMS/createMessage'));
    expect(await screen.findByRole('button', { name: /^发\s?送$/ }, { timeout: 15000 })).toBeVisible();
    await waitFor(() => expect(tabNames()).toEqual(['首页', '发送给自己（草稿未提交）', '创建消息']));
    // The first page stays mounted, hidden (out of sight, the focus order and the accessibility tree).
    expect(await contentBox()).not.toBeVisible();

    fireEvent.click(within(strip()).getByRole('tab', { name: /发送给自己/ }));
    await waitFor(() => expect(history.current.location.pathname).toBe('/UMS/dingtalk/sendSelf'));
    expect((await contentBox()).value).toBe('记得买牛奶');
    expect(within(strip()).getByRole('tab', { name: /发送给自己/ })).toHaveAttribute('aria-selected', 'true');
    // createMessage's own calls aside, the first page did not load its channels again.
    expect(sent(umsApi.listChannels).length).toBe(fetched + 1);
  });

  it('come back after a reload with the draft', async () => {
    asUser();
    const first = open('/UMS/dingtalk/sendSelf');
    fireEvent.change(await contentBox(), { target: { value: '草稿还在' } });
    act(() => first.history.current.push('/UMS/createMessage'));
    await waitFor(() => expect(tabNames()).toHaveLength(3));
    first.unmount();

    const { history } = open('/UMS/createMessage');
    // Marked before its page is shown again: closing it or the cap would ask first.
    await waitFor(() => expect(tabNames()).toEqual(['首页', '发送给自己（草稿未提交）', '创建消息']), {
      timeout: 15000,
    });
    fireEvent.click(within(strip()).getByRole('tab', { name: /发送给自己/ }));
    await waitFor(() => expect(history.current.location.pathname).toBe('/UMS/dingtalk/sendSelf'));
    const box = await contentBox();
    await waitFor(() => expect(box.value).toBe('草稿还在'));
  });

  it('close from the menu, by keyboard and by middle click; home is pinned', async () => {
    asUser();
    const { history } = open('/UMS/dingtalk/sendSelf');
    await contentBox();
    act(() => history.current.push('/UMS/createMessage'));
    await waitFor(() => expect(tabNames()).toHaveLength(3));
    act(() => history.current.push('/UMS/templates'));
    await waitFor(() => expect(tabNames()).toHaveLength(4));

    // Right-click 创建消息 → 关闭右侧: 消息模板 (shown) closes, 创建消息 is shown.
    fireEvent.contextMenu(within(strip()).getByRole('tab', { name: '创建消息' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '关闭右侧' }));
    await waitFor(() => expect(tabNames()).toEqual(['首页', '发送给自己', '创建消息']));
    await waitFor(() => expect(history.current.location.pathname).toBe('/UMS/createMessage'));

    // Middle click closes 发送给自己.
    fireEvent(
      within(strip()).getByRole('tab', { name: '发送给自己' }),
      new MouseEvent('auxclick', { bubbles: true, button: 1 }),
    );
    await waitFor(() => expect(tabNames()).toEqual(['首页', '创建消息']));

    // Keyboard: ← moves to 首页, Delete does nothing there; → and Delete close 创建消息.
    const current = within(strip()).getByRole('tab', { name: '创建消息' });
    current.focus();
    fireEvent.keyDown(current, { key: 'ArrowLeft' });
    const home = within(strip()).getByRole('tab', { name: '首页' });
    expect(home).toHaveFocus();
    fireEvent.keyDown(home, { key: 'Delete' });
    expect(tabNames()).toEqual(['首页', '创建消息']);
    fireEvent.keyDown(home, { key: 'ArrowRight' });
    fireEvent.keyDown(current, { key: 'Delete' });
    await waitFor(() => expect(tabNames()).toEqual(['首页']));
    await waitFor(() => expect(history.current.location.pathname).toBe('/home'));

    // The menu button acts on the tab shown: 关闭 is disabled for the home tab.
    fireEvent.click(screen.getByRole('button', { name: '标签页操作' }));
    expect(await screen.findByRole('menuitem', { name: '关闭' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('ask before closing a tab with unsaved input', async () => {
    asUser();
    const { history } = open('/UMS/dingtalk/sendSelf');
    fireEvent.change(await contentBox(), { target: { value: '没写完' } });
    act(() => history.current.push('/UMS/createMessage'));
    await waitFor(() => expect(tabNames()).toHaveLength(3));

    fireEvent.contextMenu(within(strip()).getByRole('tab', { name: /发送给自己/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '关闭' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('「发送给自己」中填写的内容尚未提交');
    fireEvent.click(within(dialog).getByRole('button', { name: /取\s*消/ }));
    expect(tabNames()).toHaveLength(3);

    fireEvent.contextMenu(within(strip()).getByRole('tab', { name: /发送给自己/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '关闭' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /关\s*闭/ }));
    await waitFor(() => expect(tabNames()).toEqual(['首页', '创建消息']));
    expect(sessionStorage.getItem(`formDraft:${UID}:/UMS/dingtalk/sendSelf`)).toBeNull();
  });

  it('do not keep a page that shows a secret once: shown again, it starts afresh', async () => {
    asUser();
    const { history } = open('/user/tokenGen');
    const name = await screen.findByLabelText('令牌名称', {}, { timeout: 15000 });
    fireEvent.change(name, { target: { value: '构建机' } });
    act(() => history.current.push('/UMS/createMessage'));
    await waitFor(() => expect(tabNames()).toEqual(['首页', '生成令牌', '创建消息']));
    expect(name).not.toBeInTheDocument();

    fireEvent.click(within(strip()).getByRole('tab', { name: '生成令牌' }));
    expect(await screen.findByLabelText('令牌名称')).toHaveValue('');
  });

  it("刷新 loads a tab's page anew, keeping its draft", async () => {
    asUser();
    open('/UMS/dingtalk/sendSelf');
    fireEvent.change(await contentBox(), { target: { value: '刷新也不丢' } });
    const fetched = sent(umsApi.listChannels).length;
    fireEvent.contextMenu(within(strip()).getByRole('tab', { name: /发送给自己/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '刷新' }));
    await waitFor(() => expect(sent(umsApi.listChannels).length).toBe(fetched + 1));
    const box = await contentBox();
    await waitFor(() => expect(box.value).toBe('刷新也不丢'));
  });

  it('past ten tabs close the least recently used one without unsaved input, and ask when all have some', async () => {
    const pages = [
      '/OCS/bill',
      '/OCS/overview',
      '/OCS/freeChange',
      '/OCS/configGen',
      '/OCS/askQuestion',
      '/UMS/overview',
      '/UMS/self',
      '/UMS/templates',
      '/user/me',
    ];
    const stored = ['/home', ...pages].map((path) => ({ path, search: '' }));
    localStorage.setItem(`pageTabs:${UID}`, JSON.stringify(stored));
    // 账单, the least recently used, holds a draft: 概览 goes instead.
    sessionStorage.setItem(`formDraft:${UID}:/OCS/bill`, '{"x":"1"}');
    asUser();
    const first = open('/UMS/createMessage');
    await waitFor(() => expect(tabNames()).toHaveLength(10), { timeout: 15000 });
    expect(tabNames()).not.toContain('OCS 概览');
    expect(tabNames()).toContain('账单（草稿未提交）');
    first.unmount();

    // Every one holds a draft: the user is asked before the oldest goes.
    for (const p of pages) sessionStorage.setItem(`formDraft:${UID}:${p}`, '{"x":"1"}');
    localStorage.setItem(`pageTabs:${UID}`, JSON.stringify(stored));
    open('/UMS/createMessage');
    const dialog = await screen.findByRole('dialog', {}, { timeout: 15000 });
    expect(dialog).toHaveTextContent('最早打开的「账单」中有尚未提交的内容');
    expect(tabNames()).toHaveLength(11);
    fireEvent.click(within(dialog).getByRole('button', { name: '关闭它' }));
    await waitFor(() => expect(tabNames()).toHaveLength(10));
    expect(tabNames()).not.toContain('账单（草稿未提交）');
    expect(sessionStorage.getItem(`formDraft:${UID}:/OCS/bill`)).toBeNull();
    for (const p of pages) forgetDraft(UID, p);
  });

  it('leave no draft behind when the session ends', async () => {
    asUser();
    const { history } = open('/UMS/dingtalk/sendSelf');
    fireEvent.change(await contentBox(), { target: { value: '私人的事' } });
    expect(sessionStorage.getItem(`formDraft:${UID}:/UMS/dingtalk/sendSelf`)).not.toBeNull();
    act(() => endSession());
    await waitFor(() => expect(history.current.location.pathname).toBe('/user/login'));
    await waitFor(() => expect(sessionStorage.getItem(`formDraft:${UID}:/UMS/dingtalk/sendSelf`)).toBeNull());
  });

  it('give a hidden page the address it was last shown at, not the one shown now', async () => {
    asUser(['admin']);
    answer(userApi.adminGetUser, {
      success: true,
      data: {
        uid: 2,
        username: 'alice',
        nickname: '爱丽丝',
        avatar: null,
        roles: [],
        status: 'active',
        createdAt: '2025-01-01T00:00:00.000Z',
        lastLoginAt: null,
        activeTokens: 0,
        recentLoginFailures: 0,
      },
    });
    const { history } = open('/user/admin/editUser', '?uid=2');
    const nickname = await screen.findByLabelText('昵称', {}, { timeout: 15000 });
    await waitFor(() => expect(nickname).toHaveValue('爱丽丝'));
    const loaded = sent(userApi.adminGetUser).length;
    fireEvent.change(nickname, { target: { value: '改了一半' } });

    act(() => history.current.push('/UMS/createMessage'));
    await waitFor(() => expect(tabNames()).toHaveLength(3));
    // Hidden, it still reads ?uid=2: no 缺少用户 ID in place of the form, the user is not loaded again.
    expect(screen.queryByText('缺少用户 ID')).not.toBeInTheDocument();
    fireEvent.click(within(strip()).getByRole('tab', { name: '编辑用户' }));
    await waitFor(() => expect(history.current.location.search).toBe('?uid=2'));
    expect(screen.getByLabelText('昵称')).toHaveValue('改了一半');
    expect(sent(userApi.adminGetUser)).toHaveLength(loaded);
  });

  it('do not bring back a page the user may no longer open', async () => {
    localStorage.setItem(
      `pageTabs:${UID}`,
      JSON.stringify([
        { path: '/home', search: '' },
        { path: '/njit/overview', search: '' },
        { path: '/user/admin/userManage', search: '' },
        { path: '/UMS/templates', search: '' },
      ]),
    );
    asUser();
    open('/UMS/createMessage');
    await waitFor(() => expect(tabNames()).toEqual(['首页', '消息模板', '创建消息']), { timeout: 15000 });
  });

  it("pause a hidden page's polling, and poll at once when it is shown again", async () => {
    asUser();
    // 最近发送 reloads every 3 s while a message may still be delivered.
    answer(umsApi.listMessages, async () => page([summary(1, 'queued', '还在路上')]));
    const recent = () => sent(umsApi.listMessages).filter((q) => q.query?.pageSize === 5).length;
    const { history } = open('/UMS/dingtalk/sendSelf');
    await contentBox();
    await waitFor(() => expect(recent()).toBeGreaterThanOrEqual(2), { timeout: 6000 });

    act(() => history.current.push('/UMS/createMessage'));
    await waitFor(() => expect(tabNames()).toHaveLength(3));
    const before = recent();
    // Hidden longer than the polling interval: no call.
    await act(() => new Promise((r) => setTimeout(r, 4000)));
    expect(recent()).toBe(before);

    // Shown again: one call at once, well before the next interval.
    fireEvent.click(within(strip()).getByRole('tab', { name: /发送给自己/ }));
    await waitFor(() => expect(recent()).toBe(before + 1), { timeout: 1500 });
  }, 30000);

  it("keep a page's modal with its tab: hidden with it, the page shown not locked, back when it is shown", async () => {
    asUser();
    const { history } = open('/UMS/templates');
    fireEvent.click(await screen.findByText('新建模板', { selector: 'button span' }, { timeout: 15000 }));
    const dialog = await screen.findByRole('dialog', { name: '新建模板' });
    // The page's own modal locks the page's scrolling, as antd's does on document.body.
    await waitFor(() => expect(document.body.style.overflowY).toBe('hidden'));

    act(() => history.current.push('/UMS/createMessage'));
    const send = await screen.findByRole('button', { name: /^发\s?送$/ }, { timeout: 15000 });
    // Gone with its tab: out of sight and of the accessibility tree; the page shown scrolls.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(dialog).not.toBeVisible();
    expect(document.body.style.overflowY).not.toBe('hidden');
    expect(send).toBeVisible();

    // The browser's back button: the templates page comes back with its modal open, holding the focus.
    act(() => history.current.back());
    await waitFor(() => expect(history.current.location.pathname).toBe('/UMS/templates'));
    expect(await screen.findByRole('dialog', { name: '新建模板' })).toBeVisible();
    expect(document.body.style.overflowY).toBe('hidden');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // Its own host on document.body, outside the page.
    const host = dialog.closest<HTMLElement>('.portal-page-overlays')!;
    expect(host.parentElement).toBe(document.body);
    const result = await axe.run(host, { rules: { 'color-contrast': { enabled: false } } });
    expect(result.violations).toEqual([]);

    // Forward again, the focus left in the hidden modal goes to the page shown.
    act(() => history.current.forward());
    await waitFor(() => expect(history.current.location.pathname).toBe('/UMS/createMessage'));
    await waitFor(() => expect(document.getElementById(panelIdOf('/UMS/createMessage'))).toHaveFocus());
    expect(document.body.style.overflowY).not.toBe('hidden');
  }, 30000);
});
