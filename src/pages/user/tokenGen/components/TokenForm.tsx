/** The generate-token form: name, scopes, expiry. 409 (duplicate name, 20-token limit) shows inline. */
import { zodRule } from '@/components/zodRule';
import { CreateTokenBody, MAX_ACTIVE_TOKENS, TOKEN_SCOPE_LABELS, TOKEN_SCOPES, type TokenScope } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { Alert, Button, Checkbox, Form, Input, Radio } from 'antd';
import { useState } from 'react';

interface Values {
  name: string;
  scopes: TokenScope[];
  /** 0 stands for 永不过期 (null on the wire): a radio needs a concrete value. */
  expiresInDays: 7 | 30 | 90 | 0;
}

const SCOPE_OPTIONS = TOKEN_SCOPES.map((s) => ({ value: s, label: `${TOKEN_SCOPE_LABELS[s]}（${s}）` }));
const EXPIRY_OPTIONS = [
  { value: 7, label: '7 天' },
  { value: 30, label: '30 天' },
  { value: 90, label: '90 天' },
  { value: 0, label: '永不过期' },
];

interface Props {
  initialScopes: TokenScope[];
  onCreated: (token: AnswerOf<typeof userApi.createToken>['data']) => void;
}

export default function TokenForm({ initialScopes, onCreated }: Props) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: Values) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        userApi.createToken,
        {
          body: {
            name: values.name.trim(),
            scopes: values.scopes,
            expiresInDays: values.expiresInDays === 0 ? null : values.expiresInDays,
          },
        },
        { skipErrorHandler: true },
      );
      onCreated(res.data);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(
        (['name', 'scopes'] as const).filter((f) => fields[f]).map((name) => ({ name, errors: fields[name] })),
      );
      setError(errorMessageOf(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      initialValues={{ name: '', scopes: initialScopes, expiresInDays: 90 }}
      onFinish={onFinish}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="令牌名称"
        name="name"
        extra="用于区分不同的令牌，例如“笔记本上的 OCS 脚本”。"
        rules={[{ required: true, whitespace: true, message: '请输入令牌名称' }, zodRule(CreateTokenBody.shape.name)]}
      >
        <Input placeholder="最多 64 个字符" />
      </Form.Item>
      {/* Not `required`: antd would mark the group's div aria-required, which a checkbox group may not carry. */}
      <Form.Item label="权限范围（至少选一项）" name="scopes" rules={[zodRule(CreateTokenBody.shape.scopes)]}>
        <Checkbox.Group options={SCOPE_OPTIONS} />
      </Form.Item>
      {/* Not `required` (one is always picked): antd would mark the group's div aria-required. */}
      <Form.Item label="有效期" name="expiresInDays">
        <Radio.Group options={EXPIRY_OPTIONS} optionType="button" />
      </Form.Item>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`令牌生成后只显示一次。每个账号最多同时拥有 ${MAX_ACTIVE_TOKENS} 个有效令牌。`}
      />
      <Button type="primary" htmlType="submit" loading={submitting}>
        生成令牌
      </Button>
    </Form>
  );
}
