/**
 * The create-message form: title, type, content (editor + preview), where it goes (one channel,
 * several at once, or a fallback chain) and its priority, optional schedule and the live size counter,
 * which blocks sending past UMS_MAX_MESSAGE_BYTES. Each attempt to send carries an idempotency key, so
 * a double click never queues the message twice.
 */
import { useFormDraft } from '@/components/tabs/drafts';
import { zodRule } from '@/components/zodRule';
import {
  fillMessageTemplate,
  NewMessageBody,
  UMS_MAX_MESSAGE_BYTES,
  UMS_MAX_SCHEDULE_DAYS,
  type Channel,
} from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { Alert, Button, DatePicker, Form, Input, Radio, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useRef, useState } from 'react';
import { utf8Bytes } from '../../components/bytes';
import SizeCounter from '../../components/SizeCounter';
import MarkdownEditor from './MarkdownEditor';
import { newIdempotencyKey, routeBody, type RouteValues } from './route';
import RouteFields from './RouteFields';
import TemplatePicker, { useTemplates } from './TemplatePicker';
import { disabledScheduleDate, scheduleRule } from './schedule';

interface Values extends RouteValues {
  callbackUrl?: string;
  title: string;
  type: 'markdown' | 'text';
  content: string;
  sendAt?: Dayjs | null;
}

const TYPE_OPTIONS = [
  { value: 'markdown', label: 'Markdown' },
  { value: 'text', label: '纯文本' },
];

interface Props {
  channels: Channel[];
  defaultChannel: Channel;
  onCreated: (id: number) => void;
}

export default function MessageForm({ channels, defaultChannel, onCreated }: Props) {
  const [form] = Form.useForm<Values>();
  // What is typed so far survives switching tabs and a reload, until it is sent.
  const draft = useFormDraft(form);
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const title = Form.useWatch('title', form) ?? '';
  const content = Form.useWatch('content', form) ?? '';
  const type = Form.useWatch('type', form) ?? 'markdown';
  const mode = Form.useWatch('mode', form) ?? 'single';
  // One key per message being written: a resubmit of the same form is the same message.
  const idempotencyKey = useRef(newIdempotencyKey());
  const templates = useTemplates();
  const [templateId, setTemplateId] = useState<number>();
  const [vars, setVars] = useState<Record<string, string>>({});
  const chosen = templates.find((t) => t.id === templateId);
  const bytes = chosen
    ? utf8Bytes(fillMessageTemplate(chosen.title, vars).text) +
      utf8Bytes(fillMessageTemplate(chosen.content, vars).text)
    : utf8Bytes(title) + utf8Bytes(content);
  const tooBig = bytes > UMS_MAX_MESSAGE_BYTES;

  const onFinish = async (v: Values) => {
    if (tooBig) return;
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        umsApi.createMessage,
        {
          body: {
            // With a template the server fills title, content and type from it and the variables.
            ...(chosen
              ? { template: String(chosen.id), vars }
              : { title: v.title ?? '', content: v.content, type: v.type }),
            ...routeBody(v),
            idempotencyKey: idempotencyKey.current,
            ...(v.callbackUrl?.trim() ? { callbackUrl: v.callbackUrl.trim() } : {}),
            sendAt: v.sendAt?.toISOString(),
          },
        },
        { skipErrorHandler: true },
      );
      idempotencyKey.current = newIdempotencyKey();
      draft.clear();
      onCreated(res.data.id);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      const names = (['title', 'content', 'channel', 'channels', 'priority', 'callbackUrl', 'sendAt'] as const).filter(
        (f) => fields[f] && !(chosen && (f === 'title' || f === 'content')),
      );
      if (fields.fallback) form.setFields([{ name: 'channels', errors: fields.fallback }]);
      form.setFields(names.map((name) => ({ name, errors: fields[name] })));
      setError(errorMessageOf(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 760 }}
      initialValues={{
        title: '',
        type: 'markdown',
        content: '',
        mode: 'single',
        channel: defaultChannel.id,
        priority: 'normal',
        sendAt: null,
      }}
      onFinish={onFinish}
      onValuesChange={draft.onValuesChange}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <TemplatePicker
        templates={templates}
        value={templateId}
        onChange={setTemplateId}
        vars={vars}
        onVarsChange={setVars}
      />
      {!chosen && (
        <>
          <Form.Item
            label="标题"
            name="title"
            rules={[zodRule(NewMessageBody.shape.title)]}
            extra="标题显示在通知栏或作为邮件主题；可不填。"
          >
            <Input placeholder="例如：构建完成" maxLength={256} />
          </Form.Item>
          <Form.Item label="类型" name="type">
            <Radio.Group options={TYPE_OPTIONS} optionType="button" />
          </Form.Item>
          <Form.Item label="内容" name="content" rules={[{ required: true, whitespace: true, message: '请输入内容' }]}>
            <MarkdownEditor type={type} />
          </Form.Item>
        </>
      )}
      <RouteFields channels={channels} mode={mode} />
      <Space size="large" wrap align="start">
        <Form.Item
          label="定时发送"
          name="sendAt"
          rules={[scheduleRule]}
          extra={`留空立即发送；最多提前 ${UMS_MAX_SCHEDULE_DAYS} 天。`}
        >
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            disabledDate={disabledScheduleDate}
            placeholder="立即发送"
          />
        </Form.Item>
      </Space>
      <Form.Item
        label="结果回调地址"
        name="callbackUrl"
        extra="可选。消息最终送达、失败或取消后，把结果签名后 POST 到这个地址（密钥见“我的推送”）。"
        rules={[zodRule(NewMessageBody.shape.callbackUrl), { type: 'url', message: '请输入 http:// 或 https:// 地址' }]}
      >
        <Input placeholder="https://example.edu/ums-callback" style={{ maxWidth: 480 }} />
      </Form.Item>
      <Space size="large" align="center" wrap>
        <Button type="primary" htmlType="submit" loading={submitting} disabled={tooBig}>
          发送
        </Button>
        <SizeCounter bytes={bytes} />
      </Space>
    </Form>
  );
}
