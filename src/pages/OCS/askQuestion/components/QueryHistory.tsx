/** The user's queries (OCS script and this page), newest first; `refreshKey` reloads it after each ask. */
import { formatTime } from '@/components/time';
import { OCS_TYPE_LABELS, type OcsOutcome, type QueryLogItem } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import { fetchQueries } from '@/services/ocs';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Typography } from 'antd';
import { CostText, OUTCOME_VALUE_ENUM, OutcomeTag } from '../../components/outcome';

const columns: ProColumns<QueryLogItem>[] = [
  { title: '时间', dataIndex: 'createdAt', search: false, width: 150, render: (_, q) => formatTime(q.createdAt) },
  { title: '题目', dataIndex: 'title', search: false, ellipsis: true, width: 280 },
  {
    title: '题型',
    dataIndex: 'type',
    search: false,
    render: (_, q) => OCS_TYPE_LABELS[q.type as keyof typeof OCS_TYPE_LABELS] ?? q.type,
  },
  {
    title: '结果',
    dataIndex: 'outcome',
    valueType: 'select',
    valueEnum: OUTCOME_VALUE_ENUM,
    render: (_, q) => <OutcomeTag outcome={q.outcome} />,
  },
  {
    title: '答案',
    dataIndex: 'answer',
    search: false,
    ellipsis: true,
    width: 200,
    render: (_, q) => q.answer ?? <Typography.Text type="secondary">{q.message ?? '-'}</Typography.Text>,
  },
  { title: '扣费', dataIndex: 'cost', search: false, render: (_, q) => <CostText cost={q.cost} /> },
];

export default function QueryHistory({ refreshKey }: { refreshKey: number }) {
  return (
    <ProTable<QueryLogItem, { outcome?: OcsOutcome; refreshKey: number }>
      rowKey="id"
      headerTitle="最近查询"
      columns={columns}
      params={{ refreshKey }}
      request={({ current, pageSize, outcome }) => fetchQueries({ current, pageSize, outcome })}
      pagination={TABLE_PAGINATION}
      search={{ labelWidth: 'auto' }}
      options={{ density: false, setting: false }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '还没有查询记录' }}
    />
  );
}
