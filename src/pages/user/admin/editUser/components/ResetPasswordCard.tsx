/**
 * Reset a user's password (typed or generated); it ends all of that user's sessions and, unless unticked,
 * revokes the user's personal tokens, so confirm first.
 */
import CopyableSecret from '@/components/CopyableSecret';
import { zodRule } from '@/components/zodRule';
import { Password, type AdminUser } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Alert, Button, Card, Checkbox, Form, Input, message, Modal, Radio } from 'antd';
import { useState } from 'react';

interface Values {
  mode: 'generate' | 'manual';
  password?: string;
  revokeTokens: boolean;
}

export default function ResetPasswordCard({ user }: { user: AdminUser }) {
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form);
  const [generated, setGenerated] = useState<string>();
  const [error, setError] = useState<string>();

  const reset = async ({ mode: m, password, revokeTokens }: Values) => {
    setError(undefined);
    setGenerated(undefined);
    try {
      const body =
        m === 'generate'
          ? { generatePassword: true, revokeTokens }
          : { generatePassword: false, password, revokeTokens };
      const res = await call(
        userApi.adminResetPassword,
        { params: { id: user.uid }, body },
        { skipErrorHandler: true },
      );
      message.success(
        `密码已重置，已结束该用户的 ${res.data.endedSessions} 个会话` +
          (revokeTokens ? `，吊销 ${res.data.revokedTokens} 个个人令牌` : ''),
      );
      setGenerated(res.data.generatedPassword);
      form.resetFields();
    } catch (e) {
      setError(errorMessageOf(e));
    }
  };

  const onFinish = (values: Values) => {
    Modal.confirm({
      title: `重置 ${user.username} 的密码？`,
      content: values.revokeTokens
        ? '重置密码会结束该用户的所有会话，并吊销其全部个人令牌；该用户需要用新密码重新登录、重新生成令牌。'
        : '重置密码会结束该用户的所有会话，该用户需要用新密码重新登录。其个人令牌保持有效。',
      okText: '重置密码',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => reset(values),
    });
  };

  return (
    <Card title="重置密码">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      {generated && (
        <div style={{ marginBottom: 16 }}>
          <CopyableSecret value={generated} label="新密码" />
        </div>
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        style={{ maxWidth: 480 }}
        initialValues={{ mode: 'generate', revokeTokens: true }}
        onFinish={onFinish}
      >
        <Form.Item name="mode">
          <Radio.Group
            options={[
              { value: 'generate', label: '自动生成新密码' },
              { value: 'manual', label: '手动设置' },
            ]}
          />
        </Form.Item>
        {mode === 'manual' && (
          <Form.Item
            label="新密码"
            name="password"
            rules={[{ required: true, message: '请输入新密码' }, zodRule(Password)]}
          >
            <Input.Password placeholder="8–128 个字符" autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item name="revokeTokens" valuePropName="checked">
          <Checkbox>同时吊销该用户的全部个人令牌</Checkbox>
        </Form.Item>
        <Button danger htmlType="submit">
          重置密码
        </Button>
      </Form>
    </Card>
  );
}
