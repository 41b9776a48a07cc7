/**
 * Sign-in safety of one user: the login throttle's recent failures (with 解除登录限制) and the active
 * personal tokens (with 吊销全部令牌). Both actions are confirmed first and audited by the server.
 */
import { LOGIN_FREE_FAILURES, type AdminUser } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Alert, Button, Card, Descriptions, Popconfirm, Space, Tag, message } from 'antd';
import { useState } from 'react';

interface Props {
  user: AdminUser;
  /** The user changed on the server: reload it. */
  onChanged: () => void;
}

export default function SecurityCard({ user, onChanged }: Props) {
  const [error, setError] = useState<string>();
  const restricted = user.recentLoginFailures >= LOGIN_FREE_FAILURES;

  const run = async (action: () => Promise<string>) => {
    setError(undefined);
    try {
      message.success(await action());
      onChanged();
    } catch (e) {
      setError(errorMessageOf(e));
    }
  };

  const unlock = () =>
    run(async () => {
      const res = await call(userApi.adminUnlockLogin, { params: { id: user.uid } }, { skipErrorHandler: true });
      return `已解除登录限制（清除 ${res.data.clearedFailures} 条失败记录）`;
    });
  const revoke = () =>
    run(async () => {
      const res = await call(userApi.adminRevokeTokens, { params: { id: user.uid } }, { skipErrorHandler: true });
      return `已吊销 ${res.data.revokedTokens} 个个人令牌`;
    });

  return (
    <Card title="登录与令牌">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Descriptions column={1} size="small">
        <Descriptions.Item label="近 15 分钟登录失败">
          <Space wrap>
            {`${user.recentLoginFailures} 次`}
            {restricted && <Tag color="warning">登录受限</Tag>}
            <Popconfirm
              title="解除登录限制？"
              description="清除该账号近期的登录失败记录，陌生浏览器不再需要等待。"
              okText="解除"
              cancelText="取消"
              onConfirm={unlock}
              disabled={user.recentLoginFailures === 0}
            >
              <Button size="small" disabled={user.recentLoginFailures === 0}>
                解除登录限制
              </Button>
            </Popconfirm>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="有效个人令牌">
          <Space wrap>
            {`${user.activeTokens} 个`}
            <Popconfirm
              title="吊销该用户的全部个人令牌？"
              description="使用这些令牌的脚本（OCS、消息推送等）会立即失效。"
              okText="吊销"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={revoke}
              disabled={user.activeTokens === 0}
            >
              <Button size="small" danger disabled={user.activeTokens === 0}>
                吊销全部令牌
              </Button>
            </Popconfirm>
          </Space>
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
