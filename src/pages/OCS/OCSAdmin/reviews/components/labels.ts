/** Labels and colours of the review queue. */
import { OCS_REPORT_STATUS_LABELS, QUESTION_HISTORY_LABELS } from '@/contract';

export const REPORT_COLORS = { open: 'processing', accepted: 'success', rejected: 'default' } as const;
export const REPORT_LABELS = OCS_REPORT_STATUS_LABELS;
export const historyLabel = (action: string) => QUESTION_HISTORY_LABELS[action] ?? action;
export const FILTER_ENUM = {
  open: { text: '待审核' },
  resolved: { text: '已处理' },
  all: { text: '全部' },
};
