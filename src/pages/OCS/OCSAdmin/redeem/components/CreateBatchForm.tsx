/** A new batch of redeem codes: value, how many, uses per code, an optional expiry and a note. */
import { zodRule } from '@/components/zodRule';
import { REDEEM_MAX_COUNT, RedeemBatchBody } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormDateTimePicker, ProFormDigit, ProFormTextArea } from '@ant-design/pro-components';
import { Button, Form, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { freshModal } from '@/components/formDialog';

export interface BatchFormValues {
  value: number;
  count: number;
  maxUses: number;
  expiresAt?: Dayjs | null;
  note?: string;
}

const FIELDS = ['value', 'count', 'maxUses', 'expiresAt', 'note'] as const;

export function toBatchBody(v: BatchFormValues): RedeemBatchBody {
  return {
    value: v.value,
    count: v.count,
    maxUses: v.maxUses,
    expiresAt: v.expiresAt ? dayjs(v.expiresAt).toISOString() : null,
    note: v.note?.trim() ?? '',
  };
}

export default function CreateBatchForm({ onCreated }: { onCreated: () => void }) {
  const [form] = Form.useForm<BatchFormValues>();

  const onFinish = async (v: BatchFormValues) => {
    try {
      const res = await call(ocsFreeApi.createRedeemBatch, { body: toBatchBody(v) }, { skipErrorHandler: true });
      message.success(`已生成 ${res.data.codeCount} 个兑换码，请在列表中下载（只能下载一次）`);
      onCreated();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(FIELDS.filter((f) => fields[f]).map((name) => ({ name, errors: fields[name] })));
      message.error(errorMessageOf(e));
      return false;
    }
  };

  return (
    <ModalForm<BatchFormValues>
      form={form}
      title="生成兑换码"
      width={520}
      trigger={
        <Button type="primary" icon={<PlusOutlined aria-hidden />}>
          生成兑换码
        </Button>
      }
      modalProps={freshModal(form)}
      submitter={{ searchConfig: { submitText: '生成', resetText: '取消' } }}
      initialValues={{ maxUses: 1, count: 10 }}
      // The picker's Dayjs reaches onFinish untouched; toBatchBody makes it ISO.
      dateFormatter={false}
      onFinish={onFinish}
    >
      <ProFormDigit
        name="value"
        label="面值（积分）"
        min={1}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true, message: '请输入面值' }, zodRule(RedeemBatchBody.shape.value)]}
      />
      <ProFormDigit
        name="count"
        label="数量"
        min={1}
        fieldProps={{ precision: 0 }}
        extra={`每批 1～${REDEEM_MAX_COUNT} 个`}
        rules={[{ required: true, message: '请输入数量' }, zodRule(RedeemBatchBody.shape.count)]}
      />
      <ProFormDigit
        name="maxUses"
        label="每个兑换码可用次数"
        min={1}
        fieldProps={{ precision: 0 }}
        extra="每位用户对同一个兑换码只能兑换一次"
        rules={[{ required: true, message: '请输入可用次数' }, zodRule(RedeemBatchBody.shape.maxUses)]}
      />
      <ProFormDateTimePicker
        name="expiresAt"
        label="过期时间"
        placeholder="不填则永不过期"
        fieldProps={{ disabledDate: (d: Dayjs) => d.isBefore(dayjs().startOf('day')), style: { width: '100%' } }}
      />
      <ProFormTextArea
        name="note"
        label="备注"
        placeholder="例如：开学活动（会显示在用户的账单里）"
        fieldProps={{ maxLength: 200, showCount: true }}
      />
    </ModalForm>
  );
}
