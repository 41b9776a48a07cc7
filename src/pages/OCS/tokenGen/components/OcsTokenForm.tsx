/**
 * Creates a personal API token whose only scope is ocs:query, through the user module's token API.
 * The scope is fixed on purpose: the config generated next needs exactly this permission, and a token
 * that can also push UMS messages should not end up inside a userscript config.
 */
import { zodRule } from '@/components/zodRule';
import { CreateTokenBody, TOKEN_SCOPE_LABELS } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { Alert, Button, Form, Input, Radio, Tag } from 'antd';
import { useState } from 'react';

interface Values {
  name: string;
  /** 0 stands for 永不过期 (null on the wire). */
  expiresInDays: 7 | 30 | 90 | 0;
}

const EXPIRY_OPTIONS = [
  { value: 7, label: '7 天' },
  { value: 30, label: '30 天' },
  { value: 90, label: '90 天' },
  { value: 0, label: '永不过期' },
];

export default function OcsTokenForm({
  onCreated,
}: {
  onCreated: (t: AnswerOf<typeof userApi.createToken>['data']) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (v: Values) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        userApi.createToken,
        {
          body: {
            name: v.name.trim(),
            scopes: ['ocs:query'],
            expiresInDays: v.expiresInDays === 0 ? null : v.expiresInDays,
          },
        },
        { skipErrorHandler: true },
      );
      onCreated(res.data);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields.name) form.setFields([{ name: 'name', errors: fields.name }]);
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
      initialValues={{ name: '', expiresInDays: 90 }}
      onFinish={onFinish}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="令牌名称"
        name="name"
        validateFirst
        extra="用于区分不同设备上的脚本，例如“宿舍电脑的 OCS 脚本”。"
        rules={[{ required: true, whitespace: true, message: '请输入令牌名称' }, zodRule(CreateTokenBody.shape.name)]}
      >
        <Input placeholder="最多 64 个字符" />
      </Form.Item>
      <Form.Item label="权限范围">
        <Tag color="blue">{TOKEN_SCOPE_LABELS['ocs:query']}（ocs:query）</Tag>
      </Form.Item>
      {/* Not `required` (one is always picked): antd would mark the group's div aria-required. */}
      <Form.Item label="有效期" name="expiresInDays">
        <Radio.Group options={EXPIRY_OPTIONS} optionType="button" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={submitting}>
        生成令牌
      </Button>
    </Form>
  );
}
