/** Frame of the login and register pages (they sit outside the shared layout). */
import { Link } from '@umijs/max';
import { Typography } from 'antd';
import React from 'react';

export default function AuthShell(props: { title: string; subTitle?: string; children: React.ReactNode }) {
  return (
    <div style={{ minHeight: '100vh', background: '#f5f5f5', padding: '48px 16px', boxSizing: 'border-box' }}>
      <div style={{ maxWidth: 400, margin: '0 auto', background: '#fff', borderRadius: 8, padding: 32 }}>
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <Link to="/home">
            <img src="/logo.svg" alt="" width={44} height={44} />
          </Link>
          <Typography.Title level={3} style={{ margin: '12px 0 4px' }}>
            统一门户 · {props.title}
          </Typography.Title>
          {props.subTitle && <Typography.Text type="secondary">{props.subTitle}</Typography.Text>}
        </div>
        {props.children}
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Link to="/home">返回首页</Link>
        </div>
      </div>
    </div>
  );
}
