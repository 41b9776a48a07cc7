/**
 * Frame of the login and register pages (they sit outside the shared layout). Plain elements in antd's
 * colours rather than Typography: the login page is the first download of most visitors (budget in
 * tests/e2e/budget.json), and Typography would add its own chunk for one heading.
 */
import { Link } from '@umijs/max';
import { theme } from 'antd';
import React from 'react';
import { MAIN_CONTENT_ID } from '@/components/SkipLink';
import AuthLink from './AuthLink';

export default function AuthShell(props: { title: string; subTitle?: string; children: React.ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div style={{ minHeight: '100vh', background: '#f5f5f5', padding: '48px 16px', boxSizing: 'border-box' }}>
      <main
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        style={{ maxWidth: 400, margin: '0 auto', background: '#fff', borderRadius: 8, padding: 32 }}
      >
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <Link to="/home" aria-label="统一门户首页">
            <img src="/logo.svg" alt="" width={44} height={44} />
          </Link>
          <h1
            style={{
              margin: '12px 0 4px',
              fontSize: token.fontSizeHeading3,
              lineHeight: token.lineHeightHeading3,
              fontWeight: token.fontWeightStrong,
              color: token.colorTextHeading,
            }}
          >
            统一门户 · {props.title}
          </h1>
          {props.subTitle && <div style={{ color: token.colorTextSecondary }}>{props.subTitle}</div>}
        </div>
        {props.children}
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <AuthLink to="/home">返回首页</AuthLink>
        </div>
      </main>
    </div>
  );
}
