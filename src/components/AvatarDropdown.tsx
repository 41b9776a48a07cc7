/**
 * Header avatar menu: 登录 when logged out (back here afterwards), 退出登录 when
 * logged in (POST /api/user/logout, then a full reload so every cache is dropped).
 */
import type { CurrentUser } from '@/contract';
import { DROPDOWN_DELAYS } from '@/requestDefaults';
import { logout } from '@/services/user';
import { LoginOutlined, LogoutOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from '@umijs/max';
import { Dropdown, type MenuProps } from 'antd';
import React from 'react';
import { loginPath } from './redirect';

export interface AvatarDropdownProps {
  currentUser: CurrentUser | null;
  children: React.ReactNode;
}

export default function AvatarDropdown({ currentUser, children }: AvatarDropdownProps) {
  const navigate = useNavigate();
  const location = useLocation();

  const items: MenuProps['items'] = currentUser
    ? [{ key: 'logout', icon: <LogoutOutlined />, label: '退出登录' }]
    : [{ key: 'login', icon: <LoginOutlined />, label: '登录' }];

  const onClick: MenuProps['onClick'] = async ({ key }) => {
    if (key === 'login') {
      navigate(loginPath(location));
      return;
    }
    try {
      const res = await logout();
      if (res?.success) window.location.reload();
    } catch {
      // The request plugin's error handler has already shown the message.
    }
  };

  return (
    <Dropdown menu={{ items, onClick }} {...DROPDOWN_DELAYS} placement="bottomRight">
      <span style={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center' }}>{children}</span>
    </Dropdown>
  );
}
