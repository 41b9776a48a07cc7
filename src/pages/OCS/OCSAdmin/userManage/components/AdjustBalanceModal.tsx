/**
 * 调整余额: add or remove points with a required reason, which lands on the user's bill and in the
 * audit log. The server refuses a deduction below zero; the form says so before sending.
 */
import type { OcsAdminUser } from '@/contract';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { ModalForm, ProFormDependency, ProFormDigit, ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { message, Typography } from 'antd';

interface Values {
  direction: 'add' | 'remove';
  points: number;
  reason: string;
}

export default function AdjustBalanceModal({
  user,
  onClose,
  onDone,
}: {
  user: OcsAdminUser | null;
  onClose: () => void;
  onDone: () => void;
}) {
  return (
    <ModalForm<Values>
      title={user ? `调整余额：${user.username}` : '调整余额'}
      open={!!user}
      width={480}
      initialValues={{ direction: 'add' }}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ searchConfig: { submitText: '确认调整' } }}
      onFinish={async (v) => {
        if (!user) return false;
        const amount = v.direction === 'add' ? v.points : -v.points;
        try {
          const res = await call(ocsAdminApi.adjustBalance, {
            params: { id: user.id },
            body: { amount, reason: v.reason.trim() },
          });
          message.success(`已调整，${user.username} 当前余额 ${res.data.balance} 积分`);
          onDone();
          onClose();
          return true;
        } catch {
          return false; // the request layer has shown the error (e.g. 余额不足)
        }
      }}
    >
      <Typography.Paragraph>当前余额：{user?.balance ?? 0} 积分</Typography.Paragraph>
      <ProFormRadio.Group
        name="direction"
        label="方向"
        options={[
          { label: '增加', value: 'add' },
          { label: '扣减', value: 'remove' },
        ]}
      />
      <ProFormDependency name={['direction']}>
        {({ direction }) => (
          <ProFormDigit
            name="points"
            label="积分"
            min={1}
            fieldProps={{ precision: 0 }}
            rules={[
              { required: true, message: '请输入积分数' },
              {
                validator: async (_: unknown, v: number | undefined) => {
                  if (direction === 'remove' && user && v && v > user.balance)
                    throw new Error(`最多可扣减 ${user.balance} 积分`);
                },
              },
            ]}
          />
        )}
      </ProFormDependency>
      <ProFormTextArea
        name="reason"
        label="原因"
        placeholder="例如：AI 服务中断补偿（会显示在用户账单中）"
        fieldProps={{ maxLength: 200, showCount: true }}
        rules={[
          { required: true, whitespace: true, message: '请填写调整原因' },
          { max: 200, message: '原因不能超过 200 个字符' },
        ]}
      />
    </ModalForm>
  );
}
