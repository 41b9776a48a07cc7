/**
 * The user's callback signing secret: hidden until asked for, copyable, and replaced only after a
 * confirmation (receivers still checking with the old one will refuse what follows). How a receiver
 * verifies a callback is spelled out below it.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Popconfirm, Space, Typography, message } from 'antd';
import { useState } from 'react';

const mask = (s: string) => `${s.slice(0, 8)}…${s.slice(-4)}`;

export default function CallbackSecretCard() {
  const [shown, setShown] = useState(false);
  const { data, error, loading, refresh, mutate } = useRequest(() =>
    call(umsApi.callbackSecret, {}, { skipErrorHandler: true }),
  );
  const secret = data?.data.secret;

  const rotate = async () => {
    try {
      const res = await call(umsApi.rotateCallbackSecret);
      mutate(res);
      setShown(true);
      message.success('回调签名密钥已更换，之后的回调都用新密钥签名');
    } catch {
      // The request layer has shown the error.
    }
  };

  return (
    <Card title="回调签名密钥" loading={loading && !data}>
      {error && !data ? (
        <Alert
          type="error"
          showIcon
          message={`密钥加载失败：${errorMessageOf(error)}`}
          action={
            <Button size="small" onClick={refresh}>
              重试
            </Button>
          }
        />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">
            发送消息时填写 callbackUrl，消息最终送达、失败或取消后，门户会把结果 POST
            到该地址一次（失败会按消息的重试策略重试）。
          </Typography.Text>
          <Space wrap>
            <Typography.Text code data-testid="callback-secret" copyable={shown && secret ? { text: secret } : false}>
              {secret ? (shown ? secret : mask(secret)) : '…'}
            </Typography.Text>
            <Button size="small" onClick={() => setShown((v) => !v)} disabled={!secret}>
              {shown ? '隐藏' : '显示'}
            </Button>
            <Popconfirm
              title="更换回调签名密钥？"
              description="更换后，仍用旧密钥验证的接收方会拒收之后的回调。"
              okText="更换"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={rotate}
            >
              <Button size="small" danger>
                更换密钥
              </Button>
            </Popconfirm>
          </Space>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
            验证方法：请求头 <Typography.Text code>X-Portal-Signature</Typography.Text> 等于{' '}
            <Typography.Text code>sha256=</Typography.Text> 加上以密钥对「
            <Typography.Text code>X-Portal-Timestamp</Typography.Text> + . + 请求体原文」计算的 HMAC-SHA256 十六进制值。
          </Typography.Paragraph>
        </Space>
      )}
    </Card>
  );
}
