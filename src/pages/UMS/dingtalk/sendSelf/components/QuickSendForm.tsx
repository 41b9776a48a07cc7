/** One box: content (plus an optional title) sent as plain text to the default channel. */
import { useFormDraft } from '@/components/tabs/drafts';
import { UMS_MAX_MESSAGE_BYTES, type Channel } from '@/contract';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { SendOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import { Button, Form, Input, Space, Typography, message } from 'antd';
import { useState } from 'react';
import { utf8Bytes } from '../../../components/bytes';
import SizeCounter from '../../../components/SizeCounter';

interface Values {
  title: string;
  content: string;
}

export default function QuickSendForm({ channel, onSent }: { channel: Channel; onSent: () => void }) {
  const [form] = Form.useForm<Values>();
  const draft = useFormDraft(form);
  const [sending, setSending] = useState(false);
  const bytes = utf8Bytes(Form.useWatch('title', form) ?? '') + utf8Bytes(Form.useWatch('content', form) ?? '');
  const tooBig = bytes > UMS_MAX_MESSAGE_BYTES;

  const onFinish = async (v: Values) => {
    if (tooBig) return;
    setSending(true);
    try {
      await call(umsApi.createMessage, { body: { title: v.title?.trim() ?? '', content: v.content, type: 'text' } });
      message.success('已发送到钉钉队列');
      draft.clear();
      onSent();
    } catch {
      // The request layer has shown the error.
    } finally {
      setSending(false);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{ title: '', content: '' }}
      onFinish={onFinish}
      onValuesChange={draft.onValuesChange}
    >
      <Form.Item name="title" label="标题（可选）">
        <Input placeholder="不填则只发送内容" maxLength={256} />
      </Form.Item>
      <Form.Item
        name="content"
        label="内容"
        rules={[{ required: true, whitespace: true, message: '请输入要发送的内容' }]}
      >
        <Input.TextArea rows={4} placeholder="想提醒自己的事……" />
      </Form.Item>
      <Space size="large" wrap>
        <Button
          type="primary"
          htmlType="submit"
          icon={<SendOutlined aria-hidden />}
          loading={sending}
          disabled={tooBig}
        >
          发送到我的钉钉
        </Button>
        <Typography.Text type="secondary">
          渠道：{channel.name}（默认，<Link to="/UMS/self">更改</Link>）
        </Typography.Text>
        <SizeCounter bytes={bytes} />
      </Space>
    </Form>
  );
}
