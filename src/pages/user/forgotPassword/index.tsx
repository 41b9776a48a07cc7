/**
 * /user/forgotPassword: a username or e-mail address in, the same answer whatever it was (a reset link
 * goes to the account's verified address, if there is one). Without e-mail on the server: ask an
 * administrator.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { fetchAuthSettings } from '@/services/probes';
import { MailOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { useEffect, useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';

export default function ForgotPasswordPage() {
  const [enabled, setEnabled] = useState<boolean>();
  const [sentTo, setSentTo] = useState<string>();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    let live = true;
    fetchAuthSettings()
      .then((s) => live && setEnabled(s.data.passwordReset))
      .catch(() => live && setEnabled(false));
    return () => {
      live = false;
    };
  }, []);

  const onFinish = async ({ account }: { account: string }) => {
    setError(undefined);
    setSubmitting(true);
    try {
      await call(identityApi.forgotPassword, { body: { account: account.trim() } }, { skipErrorHandler: true });
      setSentTo(account.trim());
    } catch (e) {
      setError(errorMessageOf(e));
    } finally {
      setSubmitting(false);
    }
  };

  let body;
  if (enabled === undefined) body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  else if (!enabled) {
    body = (
      <Alert
        type="info"
        showIcon
        message="门户未配置邮件服务"
        description="无法通过邮件找回密码。请联系管理员为你重置密码。"
      />
    );
  } else if (sentTo) {
    body = (
      <Alert
        type="success"
        showIcon
        message="请查收邮件"
        description={`如果“${sentTo}”对应的账号绑定了已验证的邮箱，重置链接已发送到该邮箱，30 分钟内有效，只能使用一次。没有收到时，请检查垃圾邮件，或稍后再试。`}
      />
    );
  } else {
    body = (
      <>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} />}
        <Form name="forgot" size="large" onFinish={onFinish}>
          <Form.Item
            name="account"
            rules={[{ required: true, whitespace: true, message: '请输入用户名或邮箱' }]}
            extra="重置链接只会发送到账号已验证的邮箱。"
          >
            <Input
              prefix={<MailOutlined aria-hidden />}
              placeholder="用户名或邮箱"
              aria-label="用户名或邮箱"
              maxLength={254}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            发送重置链接
          </Button>
        </Form>
      </>
    );
  }

  return (
    <AuthShell title="找回密码" subTitle="通过已验证的邮箱重置密码">
      {body}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <AuthLink to="/user/login">返回登录</AuthLink>
      </div>
    </AuthShell>
  );
}
