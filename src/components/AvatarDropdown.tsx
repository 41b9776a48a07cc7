/**
 * Header avatar menu: 登录 when logged out (back here afterwards); when logged in, the personal pages
 * (个人中心, 账号安全, 我的令牌) and 退出登录 (POST /api/user/logout, then a full reload so every cache is
 * dropped). Opens on hover and click, and from the keyboard: the trigger is a button that Enter, Space
 * or ArrowDown opens with the focus in the menu; Esc closes it and gives the focus back.
 */
import type { CurrentUser } from '@/contract';
import { DROPDOWN_DELAYS } from '@/requestDefaults';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { IdcardOutlined, KeyOutlined, LockOutlined, LoginOutlined, LogoutOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from '@umijs/max';
import { Dropdown, type MenuProps } from 'antd';
import React, { useState } from 'react';
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

export default function AvatarDropdown({ currentUser, children }: AvatarDropdownProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);

  const items: MenuProps['items'] = currentUser
    ? [
        ...PERSONAL_PAGES,
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
    if (key !== 'logout') {
      navigate(key);
      return;
    }
    try {
      const res = await call(userApi.logout);
      if (res?.success) window.location.reload();
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
  );
}
