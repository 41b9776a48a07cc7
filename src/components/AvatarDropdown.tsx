/**
 * Header avatar menu: 登录 when logged out (back here afterwards); when logged in, the personal pages
 * (个人中心, 账号安全, 我的令牌), the dark mode switch and 偏好设置 (a drawer, loaded when first opened) and 退出登录 (POST /api/user/logout, then a full reload so every cache is
 * dropped). Opens on hover and click, and from the keyboard: the trigger is a button that Enter, Space
 * or ArrowDown opens with the focus in the menu; Esc closes it and gives the focus back.
 */
import type { CurrentUser } from '@/contract';
import { DROPDOWN_DELAYS } from '@/requestDefaults';
import * as userApi from '@/contract/api/account';
import { call } from '@/services/call';
import {
  BulbOutlined,
  IdcardOutlined,
  KeyOutlined,
  LockOutlined,
  LoginOutlined,
  LogoutOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useLocation, useNavigate } from '@umijs/max';
import { Dropdown, type MenuProps } from 'antd';
import React, { lazy, Suspense, useRef, useState } from 'react';
import { setPreferences, usePreferences } from './preferences/store';
import { loginPath } from './redirect';
import { displayName } from './user';

export interface AvatarDropdownProps {
  currentUser: CurrentUser | null;
  children: React.ReactNode;
}

/** The personal pages of config/routes.ts the menu leads to. */
export const PERSONAL_PAGES = [
  { key: '/user/me', label: '个人中心', icon: <IdcardOutlined aria-hidden /> },
  { key: '/user/security', label: '账号安全', icon: <LockOutlined aria-hidden /> },
  { key: '/user/tokenManage', label: '我的令牌', icon: <KeyOutlined aria-hidden /> },
] as const;

const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

const PreferencesDrawer = lazy(() => import('./preferences/PreferencesDrawer'));

export default function AvatarDropdown({ currentUser, children }: AvatarDropdownProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  // undefined until first opened: the drawer's code loads then.
  const [drawerOpen, setDrawerOpen] = useState<boolean>();
  const trigger = useRef<HTMLSpanElement>(null);
  const { dark } = usePreferences();

  const items: MenuProps['items'] = currentUser
    ? [
        ...PERSONAL_PAGES,
        { type: 'divider' },
        { key: 'dark', icon: <BulbOutlined aria-hidden />, label: dark ? '切换到浅色模式' : '切换到深色模式' },
        { key: 'preferences', icon: <SettingOutlined aria-hidden />, label: '偏好设置' },
        { type: 'divider' },
        { key: 'logout', icon: <LogoutOutlined aria-hidden />, label: '退出登录' },
      ]
    : [{ key: 'login', icon: <LoginOutlined aria-hidden />, label: '登录' }];

  const onClick: MenuProps['onClick'] = async ({ key }) => {
    setOpen(false);
    if (key === 'login') {
      navigate(loginPath(location));
      return;
    }
    if (key === 'dark') {
      void setPreferences({ dark: !dark });
      return;
    }
    if (key === 'preferences') {
      setDrawerOpen(true);
      return;
    }
    if (key !== 'logout') {
      navigate(key);
      return;
    }
    try {
      const res = await call(userApi.logout);
      if (!res?.success) return;
      // The forms' drafts go with the user. From the tabs' code, which a signed-in user has loaded
      // already (not with this menu: a visitor's has no use for it, nor a chunk of its own).
      (await import('./tabs/PageTabs')).forgetAllDrafts();
      window.location.reload();
    } catch {
      // The request plugin's error handler has already shown the message.
    }
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!OPEN_KEYS.has(e.key)) return;
    e.preventDefault();
    setOpen(true);
  };

  return (
    <>
      <Dropdown
        menu={{ items, onClick }}
        {...DROPDOWN_DELAYS}
        trigger={['hover', 'click']}
        open={open}
        onOpenChange={setOpen}
        // The menu takes the focus when it opens (arrow keys move in it, Enter picks); Esc gives it back.
        autoFocus
        placement="bottomRight"
      >
        <span
          ref={trigger}
          role="button"
          tabIndex={0}
          aria-haspopup="menu"
          aria-expanded={open}
          aria-label={currentUser ? `${displayName(currentUser)}的账号菜单` : '未登录，打开账号菜单'}
          onKeyDown={onKeyDown}
          style={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center' }}
        >
          {children}
        </span>
      </Dropdown>
      {drawerOpen !== undefined && (
        <Suspense fallback={null}>
          <PreferencesDrawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            afterClose={() => trigger.current?.focus()}
          />
        </Suspense>
      )}
    </>
  );
}
