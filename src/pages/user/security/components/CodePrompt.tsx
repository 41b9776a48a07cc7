/** A dialog asking for a current code (or a recovery code) before a sensitive change; the caller runs it. */
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';

export default function CodePrompt(props: {
  open: boolean;
  title: string;
  description: string;
  okText: string;
  danger?: boolean;
  onCancel: () => void;
  /** Runs with the code; a rejection shows its message and keeps the dialog open. */
  onSubmit: (code: string) => Promise<void>;
}) {
  const [form] = Form.useForm<{ code: string }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const { code } = await form.validateFields();
    setError(undefined);
    setBusy(true);
    try {
      await props.onSubmit(code.trim());
      form.resetFields();
    } catch (e) {
      const field = fieldErrorsOf(e).code;
      if (field) form.setFields([{ name: 'code', errors: field }]);
      else setError(errorMessageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      cancelText="取消"
      okButtonProps={{ danger: props.danger, loading: busy }}
      onOk={submit}
      onCancel={() => {
        form.resetFields();
        setError(undefined);
        props.onCancel();
      }}
      destroyOnHidden
    >
      <p>{props.description}</p>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          label="验证码或恢复码"
          name="code"
          rules={[{ required: true, whitespace: true, message: '请输入验证码或恢复码' }]}
        >
          <Input autoComplete="one-time-code" maxLength={32} placeholder="6 位验证码，或一个恢复码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
