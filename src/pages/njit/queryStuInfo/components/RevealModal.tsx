/** Asks an administrator for the reason before one sensitive field is shown in full (audited). */
import type { RevealField } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { call } from '@/services/call';
import { ModalForm, ProFormTextArea } from '@ant-design/pro-components';
import { REVEAL_LABELS } from '../../labels';

export default function RevealModal(props: {
  studentId: number;
  field: RevealField | null;
  onClose: () => void;
  onRevealed: (field: RevealField, value: string | null) => void;
}) {
  const { studentId, field, onClose, onRevealed } = props;
  return (
    <ModalForm<{ reason: string }>
      title={field ? `查看完整${REVEAL_LABELS[field]}` : ''}
      open={field !== null}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ searchConfig: { submitText: '确认查看' } }}
      onFinish={async ({ reason }) => {
        if (!field) return false;
        try {
          const res = await call(njitApi.revealField, { params: { id: studentId }, body: { field, reason } });
          onRevealed(field, res.data.value);
          onClose();
          return true;
        } catch {
          return false; // the request layer has shown the error
        }
      }}
    >
      <p>此操作将被记录到审计日志（操作人、时间、IP 和原因）。</p>
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
