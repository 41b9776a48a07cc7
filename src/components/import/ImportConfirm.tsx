/** The confirm step at the foot of the report's card: nothing is written until the administrator confirms. */
import { Alert, Button, Progress, Space } from 'antd';
import type { ReactNode } from 'react';

export interface ImportConfirmProps {
  /** The confirm button's text, e.g. 确认导入 12 行. */
  label: ReactNode;
  /** Nothing valid to write. */
  disabled?: boolean;
  /** The commit request is under way. */
  committing?: boolean;
  /** Shown while committing (what the write does, for instance). */
  committingNote?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

export default function ImportConfirm(props: ImportConfirmProps) {
  const { committing = false } = props;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {committing && props.committingNote && (
        <Alert
          type="info"
          message={props.committingNote}
          description={<Progress percent={100} status="active" showInfo={false} />}
        />
      )}
      <Space>
        <Button type="primary" disabled={props.disabled} loading={committing} onClick={props.onConfirm}>
          {props.label}
        </Button>
        <Button disabled={committing} onClick={props.onCancel}>
          取消
        </Button>
      </Space>
    </Space>
  );
}
