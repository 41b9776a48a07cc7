/** How a query ended, as the user reads it in every OCS list (overview, ask history). */
import { OCS_OUTCOME_LABELS, type OcsOutcome } from '@/contract';
import { Tag } from 'antd';

const OUTCOME_COLORS: Record<OcsOutcome, string> = {
  bank: 'blue',
  ai: 'purple',
  cache: 'cyan',
  miss: 'default',
  no_balance: 'orange',
  error: 'red',
};

/** ProTable valueEnum for an outcome column and its filter. */
export const OUTCOME_VALUE_ENUM = Object.fromEntries(
  Object.entries(OCS_OUTCOME_LABELS).map(([k, text]) => [k, { text }]),
) as Record<OcsOutcome, { text: string }>;

export function OutcomeTag({ outcome }: { outcome: OcsOutcome }) {
  return <Tag color={OUTCOME_COLORS[outcome]}>{OCS_OUTCOME_LABELS[outcome] ?? outcome}</Tag>;
}

/** Points charged: `-1` in red, `0` (cache hits, misses) plain. */
export function CostText({ cost }: { cost: number }) {
  return cost > 0 ? <span style={{ color: '#cf1322' }}>−{cost}</span> : <span>0</span>;
}
