/** The create-user form: username, initial password or a generated one, nickname, roles. */
import { zodRule } from '@/components/zodRule';
import { Nickname, Password, Username, type Role } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { ROLE_OPTIONS } from '../../components/roleOptions';

interface Values {
  username: string;
  generatePassword: boolean;
  password?: string;
  nickname?: string;
  roles: Role[];
}

const FIELDS = ['username', 'password', 'nickname', 'roles'] as const;

export default function CreateUserForm({
  onCreated,
}: {
  onCreated: (user: AnswerOf<typeof userApi.adminCreateUser>['data']) => void;
}) {
  const [form] = Form.useForm<Values>();
  const generate = Form.useWatch('generatePassword', form);
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (v: Values) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        userApi.adminCreateUser,
        {
          body: {
            username: v.username.trim(),
            generatePassword: v.generatePassword,
            ...(v.generatePassword ? {} : { password: v.password }),
            ...(v.nickname?.trim() ? { nickname: v.nickname.trim() } : {}),
            roles: v.roles,
          },
        },
        { skipErrorHandler: true },
      );
      onCreated(res.data);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(FIELDS.filter((f) => fields[f]).map((name) => ({ name, errors: fields[name] })));
      setError(errorMessageOf(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 480 }}
      initialValues={{ generatePassword: false, roles: [] }}
      onFinish={onFinish}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="用户名"
        name="username"
        rules={[{ required: true, message: '请输入用户名' }, zodRule(Username)]}
      >
        <Input placeholder="3–32 位字母、数字、_ 或 -" autoComplete="off" />
      </Form.Item>
      <Form.Item name="generatePassword" valuePropName="checked" style={{ marginBottom: 8 }}>
        <Checkbox>自动生成初始密码（创建后只显示一次）</Checkbox>
      </Form.Item>
      {!generate && (
        <Form.Item
          label="初始密码"
          name="password"
          rules={[{ required: true, message: '请输入初始密码或选择自动生成' }, zodRule(Password)]}
        >
          <Input.Password placeholder="8–128 个字符" autoComplete="new-password" />
        </Form.Item>
      )}
      <Form.Item label="昵称" name="nickname" rules={[zodRule(Nickname)]}>
        <Input placeholder="可选，最多 32 个字符" />
      </Form.Item>
      <Form.Item label="角色" name="roles" extra="不选则为普通用户。">
        <Checkbox.Group options={ROLE_OPTIONS} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={submitting}>
        创建用户
      </Button>
    </Form>
  );
}
