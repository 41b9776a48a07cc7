/**
 * The account's e-mail address: it counts once the link mailed to it is opened, and then a forgotten
 * password can be reset through it. Without SMTP on the server the card says to ask an administrator.
 */
import { formatTime } from '@/components/time';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { Alert, Button, Card, Descriptions, Form, Input, Popconfirm, Skeleton, Space, Tag, message } from 'antd';
import { useRequest } from 'ahooks';
import { useState } from 'react';

export default function EmailCard() {
  const { data, loading, mutate } = useRequest(() => call(identityApi.emailStatus));
  const [form] = Form.useForm<{ email: string }>();
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const status = data?.data;

  const send = async ({ email }: { email: string }) => {
    setError(undefined);
    setSending(true);
    try {
      const res = await call(identityApi.setEmail, { body: { email: email.trim() } }, { skipErrorHandler: true });
      mutate(res);
      form.resetFields();
      message.success(`验证邮件已发送至 ${res.data.pendingEmail}，请在 24 小时内打开邮件中的链接`);
    } catch (e) {
      const field = fieldErrorsOf(e).email;
      if (field) form.setFields([{ name: 'email', errors: field }]);
      else setError(errorMessageOf(e));
    } finally {
      setSending(false);
    }
  };

  const remove = async () => {
    try {
      mutate(await call(identityApi.removeEmail));
      message.success('邮箱已删除');
    } catch {
      // The request layer has shown the error.
    }
  };

  if (loading && !status) {
    return (
      <Card title="邮箱">
        <Skeleton active />
      </Card>
    );
  }
  if (!status) {
    return (
      <Card title="邮箱">
        <Alert type="error" showIcon message="邮箱信息加载失败，请刷新重试" />
      </Card>
    );
  }
  return (
    <Card title="邮箱">
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        {!status.mailConfigured && (
          <Alert
            type="info"
            showIcon
            message="门户未配置邮件服务"
            description="暂时无法验证邮箱。忘记密码时，请联系管理员重置。"
          />
        )}
        <Descriptions column={1} size="small">
          <Descriptions.Item label="已验证邮箱">
            {status.email ? (
              <Space wrap>
                <span style={{ wordBreak: 'break-all' }}>{status.email}</span>
                <Tag color="green">已验证</Tag>
              </Space>
            ) : (
              '未设置'
            )}
          </Descriptions.Item>
          {status.pendingEmail && (
            <Descriptions.Item label="等待验证">
              <Space wrap>
                <span style={{ wordBreak: 'break-all' }}>{status.pendingEmail}</span>
                <Tag color="orange">{`已于 ${formatTime(status.pendingSentAt)} 发送验证邮件`}</Tag>
              </Space>
            </Descriptions.Item>
          )}
        </Descriptions>
        {error && <Alert type="error" showIcon message={error} />}
        <Form form={form} layout="vertical" onFinish={send} disabled={!status.mailConfigured} style={{ maxWidth: 420 }}>
          <Form.Item
            label={status.email ? '更换邮箱' : '设置邮箱'}
            name="email"
            rules={[
              { required: true, whitespace: true, message: '请输入邮箱地址' },
              { type: 'email', message: '邮箱地址格式不正确' },
            ]}
            extra="验证后可用于找回密码；更换时，原邮箱在新邮箱验证前继续有效。"
          >
            <Input autoComplete="email" placeholder="name@example.edu" maxLength={254} />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit" loading={sending}>
              发送验证邮件
            </Button>
            {(status.email || status.pendingEmail) && (
              <Popconfirm
                title="删除邮箱？"
                description="删除后将无法通过邮件找回密码。"
                okText="删除"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={remove}
              >
                {/* Deleting works without mail: outside the form's disabled state. */}
                <Button danger disabled={false}>
                  删除邮箱
                </Button>
              </Popconfirm>
            )}
          </Space>
        </Form>
      </Space>
    </Card>
  );
}
