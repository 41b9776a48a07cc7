/**
 * /user/register: the contract's rules on the client, 409/400 shown on the form, then signed in and on
 * to `redirect` (the page the visitor was going to, as after login; /home without one).
 */
import { zodRule } from '@/components/zodRule';
import { Nickname, Password, Username } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import { fetchAuthSettings } from '@/services/probes';
import * as userApi from '@/contract/api/account';
import { call } from '@/services/call';
import { LockOutlined, SmileOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation } from '@umijs/max';
import { Alert, Button, Form, Input, Result, Skeleton } from 'antd';
import { useRequest } from 'ahooks';
import { useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';
import useFinishSignIn from '../components/useFinishSignIn';

interface RegisterValues {
  username: string;
  password: string;
  confirm: string;
  nickname?: string;
}

const FIELDS = ['username', 'password', 'nickname'] as const;

export default function RegisterPage() {
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const [form] = Form.useForm<RegisterValues>();
  const location = useLocation();
  const redirect = new URLSearchParams(location.search).get('redirect');
  const finishSignIn = useFinishSignIn();
  const { data: settings, loading } = useRequest(fetchAuthSettings);

  if (loading) {
    return (
      <AuthShell title="注册">
        <Skeleton active />
      </AuthShell>
    );
  }
  if (settings?.data.registration === 'closed') {
    return (
      <AuthShell title="注册">
        <Result
          status="info"
          title="注册已关闭"
          subTitle="管理员已关闭开放注册，请联系管理员创建账号。"
          extra={<AuthLink to={`/user/login${location.search}`}>去登录</AuthLink>}
        />
      </AuthShell>
    );
  }

  const onFinish = async ({ username, password, nickname }: RegisterValues) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        userApi.register,
        { body: { username, password, nickname: nickname?.trim() || undefined } },
        { skipErrorHandler: true },
      );
      if (res?.success) {
        finishSignIn(res.data, redirect, '注册成功，已为你登录');
        return; // signed in: the button keeps turning until the next page takes this one's place
      }
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(FIELDS.filter((f) => fields[f]).map((name) => ({ name, errors: fields[name] })));
      setError(errorMessageOf(e));
    }
    setSubmitting(false);
  };

  return (
    <AuthShell title="注册" subTitle="注册后即自动登录">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} />}
      <Form<RegisterValues> form={form} name="register" size="large" onFinish={onFinish}>
        <Form.Item name="username" rules={[{ required: true, message: '请输入用户名' }, zodRule(Username)]}>
          <Input
            prefix={<UserOutlined aria-hidden />}
            placeholder="用户名（3–32 位字母、数字、_ 或 -）"
            autoComplete="username"
            aria-label="用户名"
          />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }, zodRule(Password)]}>
          <Input.Password
            prefix={<LockOutlined aria-hidden />}
            placeholder="密码（8–128 位）"
            autoComplete="new-password"
            aria-label="密码"
          />
        </Form.Item>
        <Form.Item
          name="confirm"
          dependencies={['password']}
          rules={[
            { required: true, message: '请再次输入密码' },
            ({ getFieldValue }) => ({
              validator: async (_, value) => {
                if (value && value !== getFieldValue('password')) throw new Error('两次输入的密码不一致');
              },
            }),
          ]}
        >
          <Input.Password
            prefix={<LockOutlined aria-hidden />}
            placeholder="确认密码"
            autoComplete="new-password"
            aria-label="确认密码"
          />
        </Form.Item>
        <Form.Item name="nickname" rules={[zodRule(Nickname)]}>
          <Input prefix={<SmileOutlined aria-hidden />} placeholder="昵称（可选，最多 32 个字符）" aria-label="昵称" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          注册
        </Button>
        <div style={{ marginTop: 16, textAlign: 'right' }}>
          <AuthLink to={`/user/login${location.search}`}>已有账号？去登录</AuthLink>
        </div>
      </Form>
    </AuthShell>
  );
}
