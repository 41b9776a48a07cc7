/**
 * /user/resetPassword#token=…: the link of a reset mail. Shows whose password it resets, takes the new
 * one (twice) and revokes every personal token too unless the user unticks the box (a reset often follows
 * a stolen password); every session of the account ends.
 */
import { zodRule } from '@/components/zodRule';
import { Password } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { LockOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from '@umijs/max';
import { Alert, Button, Checkbox, Form, Input, Spin } from 'antd';
import { useEffect, useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';
import { linkToken } from '@/components/linkToken';

interface Values {
  newPassword: string;
  confirm: string;
  revokeTokens: boolean;
}

export default function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const token = linkToken(location.hash);
  const [form] = Form.useForm<Values>();
  const [username, setUsername] = useState<string>();
  const [invalid, setInvalid] = useState<string | undefined>(token ? undefined : '链接不完整，请从邮件中完整复制链接');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<{ endedSessions: number; revokedTokens: number }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!token) return;
    let live = true;
    call(identityApi.checkPasswordReset, { body: { token } }, { skipErrorHandler: true })
      .then((res) => live && setUsername(res.data.username))
      .catch((e) => live && setInvalid(errorMessageOf(e)));
    return () => {
      live = false;
    };
  }, [token]);

  const onFinish = async ({ newPassword, revokeTokens }: Values) => {
    setError(undefined);
    setSaving(true);
    try {
      const res = await call(
        identityApi.resetPassword,
        { body: { token: token!, newPassword, revokeTokens } },
        { skipErrorHandler: true },
      );
      setDone(res.data);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields.newPassword) form.setFields([{ name: 'newPassword', errors: fields.newPassword }]);
      else if (fields.token) setInvalid(errorMessageOf(e));
      else setError(errorMessageOf(e));
    } finally {
      setSaving(false);
    }
  };

  let body;
  if (invalid) {
    body = (
      <Alert
        type="error"
        showIcon
        message="无法重置密码"
        description={
          <>
            {invalid}。{' '}
            <AuthLink to="/user/forgotPassword" inText>
              重新申请
            </AuthLink>
          </>
        }
      />
    );
  } else if (done) {
    const parts = [`已退出该账号的 ${done.endedSessions} 个会话`];
    if (done.revokedTokens > 0) parts.push(`吊销 ${done.revokedTokens} 个个人令牌`);
    body = (
      <>
        <Alert type="success" showIcon message="密码已重置" description={`${parts.join('，')}。请用新密码登录。`} />
        <Button type="primary" block size="large" style={{ marginTop: 24 }} onClick={() => navigate('/user/login')}>
          去登录
        </Button>
      </>
    );
  } else if (!username) {
    body = <Spin style={{ display: 'block', margin: '24px auto' }} />;
  } else {
    body = (
      <>
        <p>
          为账号 <b>{username}</b> 设置新密码。重置后，该账号所有已登录的设备都会退出。
        </p>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} />}
        <Form<Values> form={form} size="large" onFinish={onFinish} initialValues={{ revokeTokens: true }}>
          <Form.Item name="newPassword" rules={[{ required: true, message: '请输入新密码' }, zodRule(Password)]}>
            <Input.Password
              prefix={<LockOutlined aria-hidden />}
              placeholder="新密码（8–128 个字符）"
              autoComplete="new-password"
              aria-label="新密码"
            />
          </Form.Item>
          <Form.Item
            name="confirm"
            dependencies={['newPassword']}
            rules={[
              { required: true, message: '请再次输入新密码' },
              ({ getFieldValue }) => ({
                validator: async (_, value) => {
                  if (value && value !== getFieldValue('newPassword')) throw new Error('两次输入的密码不一致');
                },
              }),
            ]}
          >
            <Input.Password
              prefix={<LockOutlined aria-hidden />}
              placeholder="确认新密码"
              autoComplete="new-password"
              aria-label="确认新密码"
            />
          </Form.Item>
          <Form.Item
            name="revokeTokens"
            valuePropName="checked"
            extra="密码被盗后，用它创建的令牌仍可使用；除非确定令牌安全，请保持勾选。"
          >
            <Checkbox>同时吊销我的全部个人令牌</Checkbox>
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={saving}>
            重置密码
          </Button>
        </Form>
      </>
    );
  }

  return (
    <AuthShell title="重置密码">
      {body}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <AuthLink to="/user/login">返回登录</AuthLink>
      </div>
    </AuthShell>
  );
}
