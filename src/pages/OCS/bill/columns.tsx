/** Columns and search fields of the ledger: 时间, 类型 (multi-select filter), 金额, 余额, 说明, and a date range. */
import { formatTime } from '@/components/time';
import { LEDGER_KIND_LABELS, type LedgerItem, type LedgerKind } from '@/contract';
import type { ProColumns } from '@ant-design/pro-components';
import { Tag } from 'antd';

const KIND_COLORS: Record<LedgerKind, string> = {
  charge: 'volcano',
  topup: 'green',
  free: 'cyan',
  redeem: 'gold',
  adjust: 'purple',
  refund: 'blue',
};

const KIND_VALUE_ENUM = Object.fromEntries(
  Object.entries(LEDGER_KIND_LABELS).map(([k, text]) => [k, { text }]),
) as Record<LedgerKind, { text: string }>;

export function Amount({ value }: { value: number }) {
  return value >= 0 ? (
    <span style={{ color: '#389e0d' }}>+{value}</span>
  ) : (
    // A real minus sign: `-1` in a table reads like a dash.
    <span style={{ color: '#cf1322' }}>−{Math.abs(value)}</span>
  );
}

export const ledgerColumns: ProColumns<LedgerItem>[] = [
  { title: '时间', dataIndex: 'createdAt', search: false, width: 150, render: (_, l) => formatTime(l.createdAt) },
  {
    title: '日期',
    dataIndex: 'dateRange',
    valueType: 'dateRange',
    hideInTable: true,
    fieldProps: { placeholder: ['开始日期', '结束日期'] },
    // Calendar days of the portal's zone, both inclusive: the server turns them into instants.
    search: { transform: (value: [string, string]) => ({ from: value[0], to: value[1] }) },
  },
  {
    title: '类型',
    dataIndex: 'kind',
    valueType: 'select',
    valueEnum: KIND_VALUE_ENUM,
    fieldProps: { mode: 'multiple', placeholder: '全部类型' },
    render: (_, l) => <Tag color={KIND_COLORS[l.kind]}>{LEDGER_KIND_LABELS[l.kind] ?? l.kind}</Tag>,
  },
  { title: '金额', dataIndex: 'amount', search: false, align: 'right', render: (_, l) => <Amount value={l.amount} /> },
  { title: '余额', dataIndex: 'balanceAfter', search: false, align: 'right' },
  { title: '说明', dataIndex: 'memo', search: false, ellipsis: true },
];
