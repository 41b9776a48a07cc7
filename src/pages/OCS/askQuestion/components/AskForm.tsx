/**
 * The ask form: 题目 (≤ 2000 characters), 题型 (不限 by default), 选项. A 400 puts the server's field
 * errors on the fields; a 429 becomes the 请求过快 outcome instead of an error.
 */
import { useFormDraft } from '@/components/tabs/drafts';
import { zodRule } from '@/components/zodRule';
import { AskBody, OCS_TITLE_MAX, OCS_TYPE_LABELS, OCS_TYPES } from '@/contract';
import { errorMessageOf, fieldErrorsOf, statusOf } from '@/requestErrorConfig';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { Alert, Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import type { AskOutcome } from './AskResult';
import OptionsField from './OptionsField';

interface Values {
  title: string;
  type: (typeof OCS_TYPES)[number] | 'any';
  options: string[];
}

const TYPE_OPTIONS = (['any', ...OCS_TYPES] as const).map((t) => ({ value: t, label: OCS_TYPE_LABELS[t] }));

/** Seconds from a 429's Retry-After header, when the server sent one. */
function retryAfterOf(error: unknown): number | undefined {
  const headers = (error as { response?: { headers?: Record<string, string> } })?.response?.headers;
  const seconds = Number(headers?.['retry-after']);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

export default function AskForm({ onOutcome }: { onOutcome: (o: AskOutcome) => void }) {
  const [form] = Form.useForm<Values>();
  // A question being typed survives switching tabs and a reload; once asked it stays on screen.
  const draft = useFormDraft(form);
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (v: Values) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const options = (v.options ?? []).map((o) => (o ?? '').trim()).filter(Boolean);
      const res = await call(
        ocsApi.ask,
        { body: { title: v.title.trim(), type: v.type, options } },
        { skipErrorHandler: true },
      );
      draft.forget();
      onOutcome({ kind: 'result', result: res.data });
    } catch (e) {
      if (statusOf(e) === 429) {
        onOutcome({ kind: 'tooFast', retryAfter: retryAfterOf(e) });
        return;
      }
      const fields = fieldErrorsOf(e);
      form.setFields(
        (['title', 'type', 'options'] as const)
          .filter((f) => fields[f])
          .map((name) => ({ name, errors: fields[name] })),
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
      initialValues={{ title: '', type: 'any', options: [] }}
      onFinish={onFinish}
      onValuesChange={draft.onValuesChange}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="题目"
        name="title"
        validateFirst
        rules={[{ required: true, whitespace: true, message: '请输入题目' }, zodRule(AskBody.shape.title)]}
      >
        <Input.TextArea
          rows={4}
          showCount
          maxLength={OCS_TITLE_MAX}
          placeholder="粘贴题干，例如：中华人民共和国的首都是哪座城市？"
        />
      </Form.Item>
      <Form.Item label="题型" name="type" style={{ maxWidth: 240 }}>
        <Select options={TYPE_OPTIONS} />
      </Form.Item>
      <OptionsField form={form} />
      <Button type="primary" htmlType="submit" loading={submitting}>
        查询答案
      </Button>
    </Form>
  );
}
