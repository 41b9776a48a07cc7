/**
 * The header's search: Ctrl+K or the icon opens it; pages by pinyin initials at once; each kind the user
 * may see from its own endpoint once the words settle (a newer search aborts the older); ↑ ↓ Enter Esc;
 * recent searches per user.
 */
import SearchButton from '@/components/search/SearchButton';
import * as njitApi from '@/contract/api/njit';
import * as ocsApi from '@/contract/api/ocs';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import * as umsApi from '@/contract/api/ums';
import * as userApi from '@/contract/api/user';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answer, callsOf, sent } from '../api';
import { renderAt } from '../helpers';
import { zhang } from '../njit/fixtures';

jest.mock('@/services/call');

const user = (uid: number, roles: ('admin' | 'njit')[]) => ({
  uid,
  username: `u${uid}`,
  nickname: null,
  avatar: null,
  roles,
});

const none = { success: true as const, data: [] };

beforeEach(() => {
  localStorage.clear();
  answer(njitApi.quickSearch, { success: true, data: [zhang] });
  answer(userApi.searchTokens, none);
  answer(userApi.adminSearchUsers, none);
  answer(umsApi.searchMessages, { success: true, data: [{ id: 3, title: '张三的告警', detail: '已送达' }] });
  answer(ocsApi.searchQueries, none);
  answer(ocsAdminApi.searchBank, none);
});

async function openWithKeys() {
  fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
  // The dialog's code loads on the first opening.
  return screen.findByRole('combobox', { name: '搜索内容' }, { timeout: 15_000 });
}

const options = () => within(screen.getByRole('listbox', { name: '搜索结果' })).queryAllByRole('option');

test('Ctrl+K opens it; an njit user finds a student by initials, picks it with the keyboard and lands on it', async () => {
  renderAt('/home', <SearchButton currentUser={user(2, ['njit'])} />);
  const box = await openWithKeys();
  fireEvent.change(box, { target: { value: 'zs' } });
  await screen.findByText('张三（202101010001）');
  expect(sent(njitApi.quickSearch)).toEqual([{ query: { q: 'zs' } }]);
  // Masked as the NJIT pages show it.
  expect(screen.getByText(/138\*\*\*\*1234/)).toBeInTheDocument();
  expect(screen.getByRole('group', { name: '学生' })).toBeInTheDocument();
  // The first option is active; ↓ moves to the message, ↑ back (and wraps).
  const [first, second] = options();
  expect(box).toHaveAttribute('aria-activedescendant', first!.id);
  expect(first).toHaveAttribute('aria-selected', 'true');
  fireEvent.keyDown(box, { key: 'ArrowDown' });
  expect(box).toHaveAttribute('aria-activedescendant', second!.id);
  fireEvent.keyDown(box, { key: 'ArrowUp' });
  fireEvent.keyDown(box, { key: 'ArrowUp' });
  expect(box).toHaveAttribute('aria-activedescendant', options().at(-1)!.id);
  fireEvent.keyDown(box, { key: 'ArrowDown' });
  fireEvent.keyDown(box, { key: 'Enter' });
  expect(screen.getByTestId('location')).toHaveTextContent('/njit/queryStuInfo?student=7');
  expect(JSON.parse(localStorage.getItem('portal:search-recent:2')!)).toEqual(['zs']);
});

test('a plain user: pages by initials at once, no student or admin kind asked', async () => {
  renderAt('/home', <SearchButton currentUser={user(3, [])} />);
  fireEvent.click(screen.getByRole('button', { name: '搜索' }));
  const box = await screen.findByRole('combobox', { name: '搜索内容' }, { timeout: 15_000 });
  fireEvent.change(box, { target: { value: 'zd' } });
  // The page is there before any request settles.
  expect(screen.getByRole('option', { name: /OCS 网课助手 \/ 账单/ })).toBeInTheDocument();
  await waitFor(() => expect(sent(umsApi.searchMessages)).toEqual([{ query: { q: 'zd' } }]));
  expect(callsOf(njitApi.quickSearch)).toEqual([]);
  expect(callsOf(userApi.adminSearchUsers)).toEqual([]);
  expect(callsOf(ocsAdminApi.searchBank)).toEqual([]);
  // Admin pages are not offered to a plain user.
  fireEvent.change(box, { target: { value: 'yhgl' } });
  expect(screen.queryByRole('option', { name: /用户管理/ })).not.toBeInTheDocument();
  fireEvent.change(box, { target: { value: 'zd' } });
  fireEvent.keyDown(box, { key: 'Enter' });
  expect(screen.getByTestId('location')).toHaveTextContent(/^\/OCS\/bill$/);
});

test('waits for the words to settle, and a newer search aborts the one in flight', async () => {
  answer(umsApi.searchMessages, () => new Promise(() => undefined));
  renderAt('/home', <SearchButton currentUser={user(4, [])} />);
  const box = await openWithKeys();
  fireEvent.change(box, { target: { value: '告' } });
  fireEvent.change(box, { target: { value: '告警' } });
  await waitFor(() => expect(sent(umsApi.searchMessages)).toEqual([{ query: { q: '告警' } }]));
  expect(screen.getByText('正在搜索…')).toBeInTheDocument();
  fireEvent.change(box, { target: { value: '告警邮件' } });
  await waitFor(() => expect(sent(umsApi.searchMessages)).toHaveLength(2));
  const [[, first], [, second]] = callsOf(umsApi.searchMessages) as [unknown, { signal: AbortSignal }][];
  expect(first.signal.aborted).toBe(true);
  expect(second.signal.aborted).toBe(false);
});

test('says so in Chinese when nothing is found', async () => {
  answer(umsApi.searchMessages, none);
  renderAt('/home', <SearchButton currentUser={user(5, [])} />);
  const box = await openWithKeys();
  fireEvent.change(box, { target: { value: 'qqqq' } });
  expect(await screen.findByText('没有找到与“qqqq”相关的结果')).toBeInTheDocument();
});

test('Esc closes; the recent searches of this user come back when the box is empty, Enter fills one in', async () => {
  localStorage.setItem('portal:search-recent:6', JSON.stringify(['账单', '告警']));
  localStorage.setItem('portal:search-recent:99', JSON.stringify(['别人的搜索']));
  renderAt('/home', <SearchButton currentUser={user(6, [])} />);
  const box = await openWithKeys();
  expect(options().map((o) => o.textContent)).toEqual(['账单', '告警']);
  fireEvent.keyDown(box, { key: 'ArrowDown' });
  fireEvent.keyDown(box, { key: 'Enter' });
  expect(box).toHaveValue('告警');
  fireEvent.keyDown(box, { key: 'Escape', keyCode: 27 });
  await waitFor(() => expect(box).not.toBeVisible());
});
