/**
 * The second step of a sign-in: the 6-digit code from the authenticator app, or one of the recovery
 * codes, and 信任此浏览器 30 天. The challenge lives in an HttpOnly cookie the first step set; when it
 * has expired (or too many codes were wrong) the password step comes back with the reason.
 */
import type { CurrentUser } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { SafetyOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';

interface Values {
  code: string;
  trustBrowser: boolean;
}

function errorCodeOf(e: unknown): string | undefined {
  const err = e as { info?: { errorCode?: string }; response?: { data?: { errorCode?: string } } };
  return err?.info?.errorCode ?? err?.response?.data?.errorCode;
}

export default function TwoFactorStep(props: {
  onSignedIn: (user: CurrentUser) => void;
  /** The challenge is gone: back to the password, with why. */
  onRestart: (message: string) => void;
}) {
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const [recovery, setRecovery] = useState(false);

  const onFinish = async (values: Values) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        identityApi.loginVerify,
        { body: { code: values.code.trim(), trustBrowser: Boolean(values.trustBrowser) } },
        { skipErrorHandler: true },
      );
      props.onSignedIn(res.data);
      return; // signed in: the button keeps turning until the next page takes this one's place
    } catch (e) {
      if (errorCodeOf(e) === 'CHALLENGE_EXPIRED') props.onRestart(errorMessageOf(e));
      else setError(errorMessageOf(e));
    }
    setSubmitting(false);
  };

  return (
    <>
      <p style={{ textAlign: 'center', marginTop: -12 }}>请输入验证器 App 中的 6 位验证码，或一个恢复码</p>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} />}
      <Form<Values> name="two-factor" size="large" initialValues={{ trustBrowser: false }} onFinish={onFinish}>
        <Form.Item
          name="code"
          rules={[
            { required: true, whitespace: true, message: recovery ? '请输入恢复码' : '请输入验证码' },
            ...(recovery ? [] : [{ pattern: /^\s*\d{6}\s*$/, message: '验证码是 6 位数字' }]),
          ]}
        >
          <Input
            prefix={<SafetyOutlined aria-hidden />}
            placeholder={recovery ? '恢复码，如 7k2m-q9xd-c4hp' : '6 位验证码'}
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            maxLength={32}
            aria-label={recovery ? '恢复码' : '验证码'}
            autoFocus
          />
        </Form.Item>
        <Form.Item name="trustBrowser" valuePropName="checked" style={{ marginBottom: 16 }}>
          <Checkbox>信任此浏览器 30 天（公共电脑请勿勾选）</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          验证并登录
        </Button>
      </Form>
      <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginTop: 16 }}>
        <Button type="link" style={{ padding: 0 }} onClick={() => setRecovery((r) => !r)}>
          {recovery ? '使用验证器 App 的验证码' : '手机不在身边？使用恢复码'}
        </Button>
        <Button type="link" style={{ padding: 0 }} onClick={() => props.onRestart('')}>
          返回重新登录
        </Button>
      </div>
    </>
  );
}
