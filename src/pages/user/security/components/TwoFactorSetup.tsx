/**
 * Turning two-factor sign-in on: scan the QR code (or type the secret), confirm with a first code, then
 * save the ten recovery codes (shown once).
 */
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { Alert, Button, Form, Input, Space, Spin, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import RecoveryCodes from './RecoveryCodes';

type Setup = AnswerOf<typeof identityApi.twoFactorSetup>['data'];

export default function TwoFactorSetup({ onCancel, onEnabled }: { onCancel: () => void; onEnabled: () => void }) {
  const [setup, setSetup] = useState<Setup>();
  const [codes, setCodes] = useState<string[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ code: string }>();

  useEffect(() => {
    let live = true;
    call(identityApi.twoFactorSetup, {}, { skipErrorHandler: true })
      .then((res) => live && setSetup(res.data))
      .catch((e) => live && setError(errorMessageOf(e)));
    return () => {
      live = false;
    };
  }, []);

  const confirm = async ({ code }: { code: string }) => {
    setError(undefined);
    setBusy(true);
    try {
      const res = await call(identityApi.twoFactorEnable, { body: { code: code.trim() } }, { skipErrorHandler: true });
      setCodes(res.data.recoveryCodes);
    } catch (e) {
      const field = fieldErrorsOf(e).code;
      if (field) form.setFields([{ name: 'code', errors: field }]);
      else setError(errorMessageOf(e));
    } finally {
      setBusy(false);
    }
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={onEnabled} />;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Steps
        size="small"
        direction="vertical"
        items={[
          {
            title: '安装验证器 App',
            description: '如 Microsoft Authenticator、Google 身份验证器、FreeOTP 或小程序“腾讯身份验证器”',
          },
          { title: '扫描二维码', description: '扫不了时，在 App 中选择“手动输入密钥”' },
          { title: '输入 App 显示的 6 位验证码' },
        ]}
      />
      {error && <Alert type="error" showIcon message={error} />}
      {!setup && !error && <Spin />}
      {setup && (
        <>
          <img
            src={setup.qrDataUrl}
            alt="两步验证二维码"
            width={200}
            height={200}
            style={{ maxWidth: '100%', height: 'auto', border: '1px solid #f0f0f0' }}
          />
          <div>
            密钥：
            <Typography.Text code copyable={{ text: setup.secret }} style={{ wordBreak: 'break-all' }}>
              {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
            </Typography.Text>
          </div>
          <Form form={form} layout="inline" onFinish={confirm} style={{ rowGap: 8 }}>
            <Form.Item
              name="code"
              rules={[
                { required: true, message: '请输入验证码' },
                { pattern: /^\s*\d{6}\s*$/, message: '验证码是 6 位数字' },
              ]}
            >
              <Input
                placeholder="6 位验证码"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={8}
                aria-label="验证码"
                style={{ width: 160 }}
              />
            </Form.Item>
            <Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={busy}>
                  确认开启
                </Button>
                <Button onClick={onCancel}>取消</Button>
              </Space>
            </Form.Item>
          </Form>
        </>
      )}
    </Space>
  );
}
