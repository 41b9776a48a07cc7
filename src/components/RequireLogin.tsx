/**
 * Pages that make sense only for a logged-in user but whose routes carry no access flag
 * (/user/me, /user/tokenGen, /user/tokenManage): without a current user they say 请先登录
 * and link to the login page, which brings the visitor back here.
 */
import { Link, useLocation, useModel } from '@umijs/max';
import { Button, Result } from 'antd';
import React from 'react';
import { loginPath } from './redirect';

export default function RequireLogin({ children }: { children: React.ReactNode }) {
  const { initialState } = useModel('@@initialState');
  const location = useLocation();
  if (initialState?.currentUser) return <>{children}</>;
  return (
    <Result
      status="403"
      title="请先登录"
      subTitle="登录后才能使用该页面。"
      extra={
        <Link to={loginPath(location)}>
          <Button type="primary">去登录</Button>
        </Link>
      }
    />
  );
}
