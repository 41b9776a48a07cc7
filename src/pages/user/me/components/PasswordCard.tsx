/**
 * Change password: needs the current one; the server then ends every other session and, when asked,
 * revokes every personal API token too (a password that leaked may have leaked with them).
 */
import { zodRule } from '@/components/zodRule';
import { Password } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Alert, Button, Card, Checkbox, Form, Input, message } from 'antd';
import { useState } from 'react';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
  revokeTokens: boolean;
}

export default function PasswordCard({ onChanged }: { onChanged: (endedSessions: number) => void }) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const onFinish = async ({ oldPassword, newPassword, revokeTokens }: Values) => {
    setError(undefined);
    setSaving(true);
    try {
      const res = await call(
        userApi.changePassword,
        { body: { oldPassword, newPassword, revokeTokens } },
        { skipErrorHandler: true },
      );
      const n = res.data.endedSessions;
      const parts = ['密码已修改'];
      if (n > 0) parts.push(`已退出其他 ${n} 个会话`);
      if (res.data.revokedTokens > 0) parts.push(`已吊销 ${res.data.revokedTokens} 个个人令牌`);
      message.success(parts.join('，'));
      form.resetFields();
      onChanged(n);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      const named = (['oldPassword', 'newPassword'] as const).filter((f) => fields[f]);
      form.setFields(named.map((name) => ({ name, errors: fields[name] })));
      if (named.length === 0) setError(errorMessageOf(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="修改密码">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        style={{ maxWidth: 360 }}
        initialValues={{ revokeTokens: false }}
      >
        <Form.Item label="当前密码" name="oldPassword" rules={[{ required: true, message: '请输入当前密码' }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPassword"
          rules={[{ required: true, message: '请输入新密码' }, zodRule(Password)]}
        >
          <Input.Password autoComplete="new-password" placeholder="8–128 个字符" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
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
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="revokeTokens" valuePropName="checked">
          <Checkbox>同时吊销我的全部个人令牌（使用令牌的脚本需换用新令牌）</Checkbox>
        </Form.Item>
        <Alert
          type="info"
          showIcon
          message="修改密码后，除当前会话外的所有登录会话都会被退出。"
          style={{ marginBottom: 16 }}
        />
        <Button type="primary" htmlType="submit" loading={saving}>
          修改密码
        </Button>
      </Form>
    </Card>
  );
}
