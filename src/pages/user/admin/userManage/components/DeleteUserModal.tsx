/**
 * Typed confirmation for deleting a user: OK stays disabled until the exact username is
 * typed. The server checks the same value and refuses self-deletion and the last admin.
 */
import type { AdminUser } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Alert, Input, message, Modal, Typography } from 'antd';
import { useState } from 'react';

interface Props {
  user: AdminUser | null;
  onClose: () => void;
  onDeleted: () => void;
}

export default function DeleteUserModal({ user, onClose, onDeleted }: Props) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const [deleting, setDeleting] = useState(false);

  const close = () => {
    setTyped('');
    setError(undefined);
    onClose();
  };

  const onOk = async () => {
    if (!user) return;
    setDeleting(true);
    setError(undefined);
    try {
      await call(
        userApi.adminDeleteUser,
        { params: { id: user.uid }, body: { confirm: typed } },
        { skipErrorHandler: true },
      );
      message.success(`用户 ${user.username} 已删除`);
      close();
      onDeleted();
    } catch (e) {
      setError(errorMessageOf(e));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Modal
      open={!!user}
      title={`删除用户 ${user?.username ?? ''}`}
      okText="永久删除"
      cancelText="取消"
      okButtonProps={{ danger: true, disabled: !user || typed !== user.username }}
      confirmLoading={deleting}
      onOk={onOk}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph>删除后无法恢复：</Typography.Paragraph>
      <ul>
        <li>该用户的 API 令牌和登录会话会一并删除，立即失效；</li>
        <li>其账单、积分流水和消息记录会保留，但改为匿名，不再关联到该账号。</li>
      </ul>
      <Typography.Paragraph>
        请输入用户名 <Typography.Text code>{user?.username}</Typography.Text> 以确认：
      </Typography.Paragraph>
      <Input
        aria-label="确认用户名"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        placeholder={user?.username}
        autoComplete="off"
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 16 }} />}
    </Modal>
  );
}
