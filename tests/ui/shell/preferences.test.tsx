/**
 * A user's preferences in the shell: the avatar menu's dark mode switch and 偏好设置 drawer save them,
 * the server's copy replaces the browser's unless the user changed something meanwhile, the page is
 * painted dark before React (public/theme-boot.js) and by the provider, and signing out forgets that.
 */
import fs from 'node:fs';
import path from 'node:path';
import { useModel } from '@@/plugin-model';
import AvatarDropdown from '@/components/AvatarDropdown';
import PreferencesProvider from '@/components/preferences/PreferencesProvider';
import { followUser } from '@/components/preferences/store';
import * as userApi from '@/contract/api/user';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { theme } from 'antd';
import React from 'react';
import { AppConfigProvider } from '../antdConfig';
import { answer, sent } from '../api';
import { renderAt } from '../helpers';

jest.mock('@/services/call');
jest.mock('@@/plugin-model', () => ({ useModel: jest.fn() }));

const DEFAULTS = { dark: false, compact: false, primaryColor: '#0958d9', siderCollapsed: false } as const;
const carol = { uid: 7, username: 'carol', nickname: null, avatar: null, roles: [] };

/** What an antd component inside the provider sees. */
function TokenProbe() {
  const { token } = theme.useToken();
  return (
    <output data-testid="token">{`${token.colorBgContainer} ${token.colorPrimary} ${token.controlHeight}`}</output>
  );
}

function renderShell(user: typeof carol | null = carol) {
  jest.mocked(useModel).mockReturnValue({ initialState: { currentUser: user } } as never);
  return renderAt(
    '/home',
    <AppConfigProvider>
      <PreferencesProvider>
        <AvatarDropdown currentUser={user}>
          <span>头像</span>
        </AvatarDropdown>
        <TokenProbe />
      </PreferencesProvider>
    </AppConfigProvider>,
  );
}

async function openMenu() {
  fireEvent.mouseEnter(screen.getByText('头像').closest('.ant-dropdown-trigger')!);
  return screen.findAllByRole('menuitem');
}

afterEach(() => {
  act(() => followUser(null));
  localStorage.clear();
  document.documentElement.removeAttribute('style');
});

it('the avatar menu switches dark mode: the theme turns dark at once, the choice is saved, the entry turns back', async () => {
  answer(userApi.getPreferences, { success: true, data: DEFAULTS });
  answer(userApi.putPreferences, async ({ body }) => ({ success: true as const, data: body }));
  renderShell();
  await waitFor(() => expect(sent(userApi.getPreferences)).toHaveLength(1));
  expect(screen.getByTestId('token').textContent).toMatch(/^#ffffff /);

  await openMenu();
  fireEvent.click(screen.getByRole('menuitem', { name: '切换到深色模式' }));
  await waitFor(() => expect(screen.getByTestId('token').textContent).toMatch(/^#141414 #/));
  expect(sent(userApi.putPreferences)).toEqual([{ body: { ...DEFAULTS, dark: true } }]);
  expect(document.documentElement.style.colorScheme).toBe('dark');
  expect(JSON.parse(localStorage.getItem('portal.theme')!)).toEqual({ dark: true });
  expect(JSON.parse(localStorage.getItem('portal.preferences.7')!)).toEqual({ ...DEFAULTS, dark: true });

  await openMenu();
  fireEvent.click(await screen.findByRole('menuitem', { name: '切换到浅色模式' }));
  await waitFor(() => expect(screen.getByTestId('token').textContent).toMatch(/^#ffffff /));
  expect(sent(userApi.putPreferences).map((i) => i.body.dark)).toEqual([true, false]);
  expect(document.documentElement.style.colorScheme).toBe('');
});

it('偏好设置 opens a drawer whose switches and colours apply and save, and Esc closes it', async () => {
  answer(userApi.getPreferences, { success: true, data: DEFAULTS });
  answer(userApi.putPreferences, async ({ body }) => ({ success: true as const, data: body }));
  renderShell();
  await openMenu();
  fireEvent.click(screen.getByRole('menuitem', { name: '偏好设置' }));
  const dialog = await screen.findByRole('dialog', { name: '偏好设置' });
  expect(dialog).toBeInTheDocument();

  const darkSwitch = () => screen.getByRole('switch', { name: '深色模式' });
  expect(darkSwitch()).toHaveAttribute('aria-checked', 'false');
  fireEvent.click(darkSwitch());
  await waitFor(() => expect(darkSwitch()).toHaveAttribute('aria-checked', 'true'));
  fireEvent.click(screen.getByRole('switch', { name: '紧凑模式' }));
  fireEvent.click(screen.getByRole('radio', { name: '酱紫' }));
  await waitFor(() => expect(screen.getByTestId('token').textContent).toMatch(/^#141414 \S+ 28$/));
  expect(screen.getByRole('radio', { name: '酱紫' })).toBeChecked();
  expect(sent(userApi.putPreferences).map((i) => i.body)).toEqual([
    { ...DEFAULTS, dark: true },
    { ...DEFAULTS, dark: true, compact: true },
    { ...DEFAULTS, dark: true, compact: true, primaryColor: '#531dab' },
  ]);

  // The side menu's collapsed state (the layout follows it at once: tests/ui/shell/app.test.tsx), not part of the look.
  const siderSwitch = screen.getByRole('switch', { name: '收起侧边菜单' });
  expect(siderSwitch).toHaveAttribute('aria-checked', 'false');
  fireEvent.click(siderSwitch);
  await waitFor(() => expect(siderSwitch).toHaveAttribute('aria-checked', 'true'));
  expect(sent(userApi.putPreferences).at(-1)!.body).toEqual({
    ...DEFAULTS,
    dark: true,
    compact: true,
    primaryColor: '#531dab',
    siderCollapsed: true,
  });

  fireEvent.click(screen.getByRole('button', { name: '恢复默认外观' }));
  await waitFor(() => expect(screen.getByTestId('token').textContent).toBe('#ffffff #0958d9 32'));
  expect(sent(userApi.putPreferences).at(-1)!.body).toEqual({ ...DEFAULTS, siderCollapsed: true });

  // Esc closes it, as its close button does (the focus going back to the avatar menu is checked in Chromium,
  // tests/e2e/preferences.test.ts: jsdom's hidden dropdown menu keeps taking it here).
  fireEvent.keyDown(screen.getByRole('dialog', { name: '偏好设置' }), { key: 'Escape', code: 'Escape', keyCode: 27 });
  await waitFor(() => expect(document.querySelector('.ant-drawer-open')).toBeNull());
});

it("the server's copy replaces the browser's, but not a change the user made while it was on its way", async () => {
  localStorage.setItem('portal.preferences.7', JSON.stringify({ ...DEFAULTS, primaryColor: '#237804' }));
  let reply: (v: unknown) => void = () => undefined;
  answer(userApi.getPreferences, () => new Promise((r) => (reply = r as never)));
  answer(userApi.putPreferences, async ({ body }) => ({ success: true as const, data: body }));
  renderShell();
  // The browser's copy from the first render.
  expect(screen.getByTestId('token').textContent).toBe('#ffffff #237804 32');
  await act(async () => reply({ success: true, data: { ...DEFAULTS, dark: true, primaryColor: '#a8071a' } }));
  await waitFor(() => expect(screen.getByTestId('token').textContent).toMatch(/^#141414 /));
  expect(JSON.parse(localStorage.getItem('portal.preferences.7')!).primaryColor).toBe('#a8071a');
  expect(document.documentElement.style.backgroundColor).toBe('rgb(0, 0, 0)');

  // Another page load: the user switches to light before the server answers; the late answer is ignored.
  act(() => followUser(null));
  answer(userApi.getPreferences, () => new Promise((r) => (reply = r as never)));
  act(() => followUser(7));
  await openMenu();
  fireEvent.click(screen.getByRole('menuitem', { name: '切换到浅色模式' }));
  await act(async () => reply({ success: true, data: { ...DEFAULTS, dark: true } }));
  expect(screen.getByTestId('token').textContent).toMatch(/^#ffffff /);
});

it('nobody signed in: the app’s theme as it is, and the boot copy is forgotten', async () => {
  localStorage.setItem('portal.theme', JSON.stringify({ dark: true }));
  renderShell(null);
  // The app's ConfigProvider is left as it was (antd's defaults in this test).
  expect(screen.getByTestId('token').textContent).toBe('#ffffff #1677ff 32');
  expect(localStorage.getItem('portal.theme')).toBeNull();
  await openMenu();
  expect(screen.queryByRole('menuitem', { name: /深色模式|偏好设置/ })).not.toBeInTheDocument();
});

describe('public/theme-boot.js, before the first paint', () => {
  const boot = fs.readFileSync(path.resolve(__dirname, '../../../public/theme-boot.js'), 'utf8');
  const run = () => new Function(boot)();

  it('paints the page dark when the last signed-in user chose dark mode', () => {
    localStorage.setItem('portal.theme', JSON.stringify({ dark: true }));
    run();
    expect(document.documentElement.style.backgroundColor).toBe('rgb(0, 0, 0)');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });

  it.each([[null], ['{"dark":false}'], ['not json'], ['{"dark":"yes"}']])('leaves it light for %s', (stored) => {
    if (stored !== null) localStorage.setItem('portal.theme', stored);
    run();
    expect(document.documentElement.style.backgroundColor).toBe('');
  });
});
