/**
 * The user's queries (OCS script and this page), newest first; `refreshKey` reloads it after each ask.
 * Answered queries can be reported as wrong (反馈); a report made shows its outcome (待审核, 已采纳 with
 * the refund, 未采纳).
 */
import { formatTime } from '@/components/time';
import {
  OCS_REPORT_STATUS_LABELS,
  answerText,
  OCS_TYPE_LABELS,
  provenanceLabel,
  type OcsOutcome,
  type QueryLogItem,
} from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CostText, OUTCOME_VALUE_ENUM, OutcomeTag } from '../../components/outcome';
import ReportModal from '../../components/ReportModal';
import ActionLink from '@/components/ActionLink';
import { useTableSettings } from '@/components/tableSettings';

const REPORT_COLORS = { open: 'processing', accepted: 'success', rejected: 'default' } as const;
const answered = (q: QueryLogItem) => ['bank', 'ai', 'cache'].includes(q.outcome) && q.answer !== null;

export default function QueryHistory({ refreshKey }: { refreshKey: number }) {
  const tableSettings = useTableSettings('OCS.queries');
  const [reporting, setReporting] = useState<number | null>(null);
  const [reported, setReported] = useState(0);
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
      render: (_, q) =>
        q.answer ? answerText(q.answer) : <Typography.Text type="secondary">{q.message ?? '-'}</Typography.Text>,
    },
    {
      title: '来源与置信度',
      dataIndex: 'source',
      search: false,
      render: (_, q) =>
        q.source ? (
          <Space size={4}>
            {provenanceLabel(q.source)}
            {q.confidence !== null && (
              <Typography.Text type="secondary">{Math.round(q.confidence * 100)}%</Typography.Text>
            )}
          </Space>
        ) : (
          '-'
        ),
    },
    { title: '扣费', dataIndex: 'cost', search: false, render: (_, q) => <CostText cost={q.cost} /> },
    {
      title: '反馈',
      key: 'report',
      search: false,
      render: (_, q) =>
        q.report ? (
          <ActionLink onClick={() => setReporting(q.id)}>
            <Tag color={REPORT_COLORS[q.report.status]}>{OCS_REPORT_STATUS_LABELS[q.report.status]}</Tag>
            {q.report.refunded > 0 && <Tag color="green">退 {q.report.refunded}</Tag>}
          </ActionLink>
        ) : answered(q) ? (
          <Button type="link" size="small" danger style={{ padding: 0 }} onClick={() => setReporting(q.id)}>
            答案有误
          </Button>
        ) : (
          '-'
        ),
    },
  ];
  return (
    <>
      <ProTable<QueryLogItem, { outcome?: OcsOutcome; refreshKey: number; reported: number }>
        rowKey="id"
        headerTitle="最近查询"
        columns={columns}
        params={{ refreshKey, reported }}
        request={({ current, pageSize, outcome }) =>
          call(ocsApi.listQueries, { query: { current, pageSize, outcome } })
        }
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '还没有查询记录' }}
      />
      <ReportModal
        queryId={reporting}
        onClose={() => setReporting(null)}
        onReported={() => setReported((n) => n + 1)}
      />
    </>
  );
}
