/**
 * Asks an administrator for the reason before one sensitive field is shown in full (audited); for a
 * field under four-eyes reveals, the reason goes with a request another administrator approves.
 */
import type { RevealField } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { call } from '@/services/call';
import { ModalForm, ProFormTextArea } from '@ant-design/pro-components';
import { message } from 'antd';
import { REVEAL_LABELS } from '../../labels';

export default function RevealModal(props: {
  studentId: number;
  field: RevealField | null;
  /** Set when the field needs another administrator's approval: how long the approval lasts. */
  approvalMinutes?: number | null;
  onClose: () => void;
  onRevealed: (field: RevealField, value: string | null) => void;
}) {
  const { studentId, field, approvalMinutes, onClose, onRevealed } = props;
  const asking = approvalMinutes != null;
  return (
    <ModalForm<{ reason: string }>
      title={field ? `${asking ? '申请查看' : '查看'}完整${REVEAL_LABELS[field]}` : ''}
      open={field !== null}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ searchConfig: { submitText: asking ? '提交申请' : '确认查看' } }}
      onFinish={async ({ reason }) => {
        if (!field) return false;
        try {
          if (asking) {
            await call(njitApi.requestReveal, { params: { id: studentId }, body: { field, reason } });
            message.success(`已提交申请：另一位管理员批准后，${approvalMinutes} 分钟内可在「查看审批」中查看`);
            onClose();
            return true;
          }
          const res = await call(njitApi.revealField, { params: { id: studentId }, body: { field, reason } });
          onRevealed(field, res.data.value);
          onClose();
          return true;
        } catch {
          return false; // the request layer has shown the error
        }
      }}
    >
      <p>
        {asking
          ? `查看该字段需另一位管理员批准；批准后 ${approvalMinutes} 分钟内可查看。申请、审批和查看都会记录到审计日志。`
          : '此操作将被记录到审计日志（操作人、时间、IP 和原因）。'}
      </p>
      <ProFormTextArea
        name="reason"
        label="查看原因"
        placeholder="例如：核实学生联系方式以发放通知"
        fieldProps={{ maxLength: 200, showCount: true }}
        rules={[
          { required: true, message: '请填写查看原因' },
          { min: 2, message: '请填写查看原因（至少 2 个字）' },
        ]}
      />
    </ModalForm>
  );
}
