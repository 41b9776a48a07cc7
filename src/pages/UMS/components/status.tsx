/** Message statuses and attempt outcomes as the user reads them. */
import { MESSAGE_STATUS_LABELS, type MessageAttempt, type MessageStatus } from '@/contract';
import { Tag } from 'antd';

const STATUS_COLORS: Record<MessageStatus, string> = {
  queued: 'blue',
  sending: 'processing',
  retrying: 'warning',
  merged: 'purple',
  delivered: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** ProTable valueEnum for the status column and its filter. */
export const STATUS_VALUE_ENUM = {
  queued: { text: MESSAGE_STATUS_LABELS.queued, status: 'Processing' },
  sending: { text: MESSAGE_STATUS_LABELS.sending, status: 'Processing' },
  retrying: { text: MESSAGE_STATUS_LABELS.retrying, status: 'Warning' },
  merged: { text: MESSAGE_STATUS_LABELS.merged, status: 'Processing' },
  delivered: { text: MESSAGE_STATUS_LABELS.delivered, status: 'Success' },
  failed: { text: MESSAGE_STATUS_LABELS.failed, status: 'Error' },
  cancelled: { text: MESSAGE_STATUS_LABELS.cancelled, status: 'Default' },
} as const;

/** Statuses in which a message may still be delivered: pages poll these. */
export const PENDING_STATUSES: MessageStatus[] = ['queued', 'sending', 'retrying', 'merged'];
export const canResend = (s: MessageStatus) => s === 'failed';
export const canCancel = (s: MessageStatus) => s === 'queued' || s === 'retrying';

export function StatusTag({ status }: { status: MessageStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{MESSAGE_STATUS_LABELS[status] ?? status}</Tag>;
}

export const OUTCOME_LABELS: Record<MessageAttempt['outcome'], { text: string; color: string }> = {
  delivered: { text: '成功', color: 'green' },
  permanent: { text: '永久失败', color: 'red' },
  rate_limited: { text: '被限流', color: 'orange' },
  transient: { text: '临时失败，将重试', color: 'orange' },
  pending: { text: '发送中', color: 'blue' },
  interrupted: { text: '已中断（结果未知）', color: 'gray' },
};
