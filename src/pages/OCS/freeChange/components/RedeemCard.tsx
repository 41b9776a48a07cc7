/** Redeeming a code: case and dashes do not matter; every refusal is shown on the field. */
import { RedeemBody } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { zodRule } from '@/components/zodRule';
import { Alert, Button, Card, Form, Input, Space } from 'antd';
import { useState } from 'react';

const codeRule = zodRule(RedeemBody.shape.code);

export default function RedeemCard({ onChanged }: { onChanged: () => void }) {
  const [form] = Form.useForm<{ code: string }>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();

  const submit = async ({ code }: { code: string }) => {
    setBusy(true);
    setDone(undefined);
    try {
      const res = await call(ocsFreeApi.redeem, { body: { code } }, { skipErrorHandler: true });
      const { amount, balance, note } = res.data;
      setDone(`兑换成功，获得 ${amount} 积分${note ? `（${note}）` : ''}，当前余额 ${balance} 积分`);
      form.resetFields();
      onChanged();
    } catch (error) {
      form.setFields([{ name: 'code', errors: [errorMessageOf(error)] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="兑换码" style={{ height: '100%' }}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item
            name="code"
            label="输入兑换码"
            extra="不区分大小写，短横线可省略"
            rules={[{ required: true, whitespace: true, message: '请输入兑换码' }, codeRule]}
          >
            <Input placeholder="XXXX-XXXX-XXXX-XXXX-XXXX" autoComplete="off" allowClear maxLength={64} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            兑换
          </Button>
        </Form>
        {done && <Alert type="success" showIcon message={done} closable onClose={() => setDone(undefined)} />}
      </Space>
    </Card>
  );
}
