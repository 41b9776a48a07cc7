/**
 * The create-message form: title, type, content (editor + preview), channel, optional schedule
 * and the live size counter, which blocks sending past UMS_MAX_MESSAGE_BYTES.
 */
import { zodRule } from '@/components/zodRule';
import { NewMessageBody, UMS_MAX_MESSAGE_BYTES, UMS_MAX_SCHEDULE_DAYS, type Channel } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import { createMessage } from '@/services/ums';
import { Alert, Button, DatePicker, Form, Input, Radio, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { utf8Bytes } from '../../components/bytes';
import SizeCounter from '../../components/SizeCounter';
import MarkdownEditor from './MarkdownEditor';
import { disabledScheduleDate, scheduleRule } from './schedule';

interface Values {
  title: string;
  type: 'markdown' | 'text';
  content: string;
  channel: number;
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
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const title = Form.useWatch('title', form) ?? '';
  const content = Form.useWatch('content', form) ?? '';
  const type = Form.useWatch('type', form) ?? 'markdown';
  const bytes = utf8Bytes(title) + utf8Bytes(content);
  const tooBig = bytes > UMS_MAX_MESSAGE_BYTES;

  const onFinish = async (v: Values) => {
    if (tooBig) return;
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await createMessage(
        { title: v.title ?? '', content: v.content, type: v.type, channel: v.channel, sendAt: v.sendAt?.toISOString() },
        { skipErrorHandler: true },
      );
      onCreated(res.data.id);
    } catch (e) {
      const fields = fieldErrorsOf(e);
      const names = (['title', 'content', 'channel', 'sendAt'] as const).filter((f) => fields[f]);
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
      initialValues={{ title: '', type: 'markdown', content: '', channel: defaultChannel.id, sendAt: null }}
      onFinish={onFinish}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form.Item
        label="标题"
        name="title"
        rules={[zodRule(NewMessageBody.shape.title)]}
        extra="Markdown 消息的标题显示在钉钉的通知栏里；可不填。"
      >
        <Input placeholder="例如：构建完成" maxLength={256} />
      </Form.Item>
      <Form.Item label="类型" name="type">
        <Radio.Group options={TYPE_OPTIONS} optionType="button" />
      </Form.Item>
      <Form.Item label="内容" name="content" rules={[{ required: true, whitespace: true, message: '请输入内容' }]}>
        <MarkdownEditor type={type} />
      </Form.Item>
      <Space size="large" wrap align="start">
        <Form.Item label="渠道" name="channel" rules={[{ required: true, message: '请选择渠道' }]}>
          <Select
            style={{ minWidth: 220 }}
            options={channels.map((c) => ({ value: c.id, label: c.isDefault ? `${c.name}（默认）` : c.name }))}
          />
        </Form.Item>
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
      <Space size="large" align="center" wrap>
        <Button type="primary" htmlType="submit" loading={submitting} disabled={tooBig}>
          发送
        </Button>
        <SizeCounter bytes={bytes} />
      </Space>
    </Form>
  );
}
