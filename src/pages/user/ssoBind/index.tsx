/**
 * /user/ssoBind: a campus identity came back that no account is linked to. Link it to an existing
 * account by proving that account's password once, or (when the server allows it) create a new
 * account for it. Either way the user is then signed in (with the second factor, if the account has one).
 */
import type { CurrentUser, LoginResult } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation } from '@umijs/max';
import { Alert, Button, Descriptions, Form, Input, Spin } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';
import useFinishSignIn from '../components/useFinishSignIn';

const TwoFactorStep = lazy(() => import('../login/components/TwoFactorStep'));

type Pending = NonNullable<AnswerOf<typeof identityApi.ssoPending>['data']>;

export default function SsoBindPage() {
  const location = useLocation();
  const redirect = new URLSearchParams(location.search).get('redirect');
  const finishSignIn = useFinishSignIn();
  const [pending, setPending] = useState<Pending | null>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<'link' | 'create'>();
  const [needCode, setNeedCode] = useState(false);

  useEffect(() => {
    let live = true;
    call(identityApi.ssoPending, {}, { skipErrorHandler: true })
      .then((res) => live && setPending(res.data))
      .catch((e) => {
        if (!live) return;
        setPending(null);
        setError(errorMessageOf(e));
      });
    return () => {
      live = false;
    };
  }, []);

  /** Signed in: the button keeps turning until the next page takes this one's place. */
  const done = (result: LoginResult) => {
    if ('challenge' in result) {
      setNeedCode(true);
      setBusy(undefined);
    } else finishSignIn(result, redirect);
  };

  const link = async (values: { username: string; password: string }) => {
    setError(undefined);
    setBusy('link');
    try {
      done((await call(identityApi.ssoPendingLink, { body: values }, { skipErrorHandler: true })).data);
    } catch (e) {
      setError(errorMessageOf(e));
      setBusy(undefined);
    }
  };

  const create = async () => {
    setError(undefined);
    setBusy('create');
    try {
      done((await call(identityApi.ssoPendingCreate, {}, { skipErrorHandler: true })).data);
    } catch (e) {
      setError(errorMessageOf(e));
      setBusy(undefined);
    }
  };

  if (needCode) {
    return (
      <AuthShell title="两步验证">
        <Suspense fallback={null}>
          <TwoFactorStep
            onSignedIn={(user: CurrentUser) => finishSignIn(user, redirect)}
            onRestart={(message) => {
              setNeedCode(false);
              setError(message || '请重新登录');
            }}
          />
        </Suspense>
      </AuthShell>
    );
  }

  let body;
  if (pending === undefined) body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  else if (pending === null) {
    body = (
      <Alert
        type="warning"
        showIcon
        message="没有待关联的统一身份"
        description={error ?? '统一身份认证可能已过期（10 分钟内有效），请回到登录页重新点击统一身份认证登录。'}
      />
    );
  } else {
    body = (
      <>
        <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
          <Descriptions.Item label="登录方式">{pending.providerName}</Descriptions.Item>
          <Descriptions.Item label="统一身份">
            <span style={{ wordBreak: 'break-all' }}>
              {pending.subject}
              {pending.displayName ? `（${pending.displayName}）` : ''}
            </span>
          </Descriptions.Item>
        </Descriptions>
        <p>门户中还没有账号与这个统一身份关联。如果你已有门户账号，请输入它的用户名和密码完成关联（只需一次）。</p>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
        <Form name="sso-link" size="large" onFinish={link}>
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input
              prefix={<UserOutlined aria-hidden />}
              placeholder="门户用户名"
              autoComplete="username"
              aria-label="用户名"
            />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password
              prefix={<LockOutlined aria-hidden />}
              placeholder="门户密码"
              autoComplete="current-password"
              aria-label="密码"
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy === 'link'}>
            关联并登录
          </Button>
        </Form>
        {pending.canCreate ? (
          <Button block size="large" style={{ marginTop: 16 }} loading={busy === 'create'} onClick={create}>
            没有门户账号？创建新账号并登录
          </Button>
        ) : (
          <Alert
            type="info"
            showIcon
            style={{ marginTop: 16 }}
            message="没有门户账号？请联系管理员为你的统一身份开通或关联账号。"
          />
        )}
      </>
    );
  }

  return (
    <AuthShell title="关联账号" subTitle="统一身份认证已通过">
      {body}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <AuthLink to="/user/login">返回登录</AuthLink>
      </div>
    </AuthShell>
  );
}
