/**
 * Nickname, roles and status of one user. Removing your own admin role or disabling
 * yourself is disabled here with a hint; the server refuses it anyway (403), and refuses
 * removing the last active admin (409). Disabling is confirmed first.
 */
import { zodRule } from '@/components/zodRule';
import { Nickname, type AdminUser } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Alert, Button, Card, Checkbox, Form, Input, message, Modal, Switch } from 'antd';
import { useState } from 'react';
import { ROLE_OPTIONS } from '../../components/roleOptions';
import { changesOf, type EditValues } from './changes';

interface Props {
  user: AdminUser;
  isSelf: boolean;
  onSaved: (user: AdminUser) => void;
}

export const DISABLE_WARNING =
  '停用后会立即结束该用户的所有登录会话；停用期间其 API 令牌无法使用（令牌不会被撤销，重新启用后恢复可用）。';

export default function EditUserForm({ user, isSelf, onSaved }: Props) {
  const [form] = Form.useForm<EditValues>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const selfAdmin = isSelf && user.roles.includes('admin');
  const options = ROLE_OPTIONS.map((o) => ({ ...o, disabled: selfAdmin && o.value === 'admin' }));

  const save = async (body: NonNullable<ReturnType<typeof changesOf>>) => {
    setSaving(true);
    setError(undefined);
    try {
      const res = await call(userApi.adminUpdateUser, { params: { id: user.uid }, body }, { skipErrorHandler: true });
      const { endedSessions, ...saved } = res.data;
      message.success(endedSessions > 0 ? `已保存，已结束该用户的 ${endedSessions} 个会话` : '已保存');
      onSaved(saved);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(
        (['nickname', 'roles'] as const).filter((f) => fields[f]).map((name) => ({ name, errors: fields[name] })),
      );
      setError(errorMessageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const onFinish = (values: EditValues) => {
    const body = changesOf(user, values);
    if (!body) {
      message.info('没有要修改的内容');
      return;
    }
    if (body.status === 'disabled') {
      Modal.confirm({
        title: `停用用户 ${user.username}？`,
        content: DISABLE_WARNING,
        okText: '停用并保存',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => save(body),
      });
      return;
    }
    void save(body);
  };

  return (
    <Card title="基本信息">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form<EditValues>
        form={form}
        layout="vertical"
        style={{ maxWidth: 480 }}
        initialValues={{ nickname: user.nickname ?? '', roles: user.roles, active: user.status === 'active' }}
        onFinish={onFinish}
      >
        <Form.Item label="用户名">
          <Input value={user.username} disabled />
        </Form.Item>
        <Form.Item label="昵称" name="nickname" rules={[zodRule(Nickname)]}>
          <Input placeholder="最多 32 个字符，留空则清除昵称" />
        </Form.Item>
        <Form.Item label="角色" name="roles" extra={selfAdmin ? '不能移除自己的管理员角色。' : '不选则为普通用户。'}>
          <Checkbox.Group options={options} />
        </Form.Item>
        <Form.Item
          label="账号状态"
          name="active"
          valuePropName="checked"
          extra={isSelf ? '不能停用自己的账号。' : '停用会立即结束该用户的所有会话，停用期间其令牌无法使用。'}
        >
          <Switch checkedChildren="正常" unCheckedChildren="停用" disabled={isSelf} aria-label="账号状态" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
      </Form>
    </Card>
  );
}
