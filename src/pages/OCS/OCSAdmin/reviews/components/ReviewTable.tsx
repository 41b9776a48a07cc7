/**
 * The review queue: reported questions, 存疑 first, then by the weight of their open reports, with the
 * stored answer and its source and what the reporters propose. 审核 opens one question; selected rows
 * can be accepted (each with its most-proposed answer), rejected or merged into one, with a reason.
 */
import { formatTime } from '@/components/time';
import { OCS_TYPE_LABELS, provenanceLabel, type ReviewItem } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import BulkDecision, { type BulkKind } from './BulkDecision';
import { FILTER_ENUM } from './labels';
import ReviewDrawer from './ReviewDrawer';
import ActionLink from '@/components/ActionLink';
import { useTableSettings } from '@/components/tableSettings';

interface Search {
  current?: number;
  pageSize?: number;
  status?: 'open' | 'resolved' | 'all';
  keyword?: string;
  disputed?: 'true' | 'false';
}

export default function ReviewTable() {
  const tableSettings = useTableSettings('OCS.admin.reviews');
  const actionRef = useRef<ActionType>();
  const [viewing, setViewing] = useState<number | null>(null);
  const [selected, setSelected] = useState<ReviewItem[]>([]);
  const [bulk, setBulk] = useState<BulkKind | null>(null);
  const reload = () => {
    setSelected([]);
    actionRef.current?.clearSelected?.();
    actionRef.current?.reload();
  };

  const columns: ProColumns<ReviewItem>[] = [
    { title: '关键字', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '题目关键字' } },
    {
      title: '状态',
      dataIndex: 'status',
      hideInTable: true,
      valueType: 'select',
      valueEnum: FILTER_ENUM,
      initialValue: 'open',
      fieldProps: { allowClear: false },
    },
    {
      title: '存疑',
      dataIndex: 'disputed',
      hideInTable: true,
      valueType: 'select',
      valueEnum: { true: { text: '仅存疑' }, false: { text: '非存疑' } },
    },
    { title: '题目', dataIndex: 'title', search: false, width: 280, ellipsis: true },
    { title: '题型', dataIndex: 'type', search: false, render: (_, r) => OCS_TYPE_LABELS[r.type] },
    {
      title: '当前答案',
      dataIndex: 'answer',
      search: false,
      ellipsis: true,
      width: 160,
      render: (_, r) => r.answer.join('；'),
    },
    {
      title: '来源',
      dataIndex: 'provenance',
      search: false,
      render: (_, r) => (
        <Space size={4} wrap>
          {provenanceLabel(r.provenance)}
          {r.disputed && <Tag color="orange">存疑</Tag>}
        </Space>
      ),
    },
    {
      title: '反馈',
      dataIndex: 'openReports',
      search: false,
      render: (_, r) => (
        <Typography.Text>
          待审 {r.openReports} / 共 {r.totalReports}
          <Typography.Text type="secondary">（权重 {r.openWeight}）</Typography.Text>
        </Typography.Text>
      ),
    },
    {
      title: '建议答案',
      dataIndex: 'proposals',
      search: false,
      ellipsis: true,
      width: 180,
      render: (_, r) =>
        r.proposals.length === 0
          ? '-'
          : r.proposals
              .slice(0, 2)
              .map((p) => `${p.answer.join('；')}（${p.count} 人）`)
              .join('；'),
    },
    { title: '最近反馈', dataIndex: 'lastReportAt', search: false, render: (_, r) => formatTime(r.lastReportAt) },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      render: (_, r) => [
        <ActionLink key="review" onClick={() => setViewing(r.questionId)}>
          {r.openReports > 0 ? '审核' : '查看'}
        </ActionLink>,
      ],
    },
  ];

  return (
    <>
      <ProTable<ReviewItem, Search>
        rowKey="questionId"
        headerTitle="纠错审核队列"
        actionRef={actionRef}
        columns={columns}
        request={({ current, pageSize, status, keyword, disputed }) =>
          call(ocsReviewApi.reviewQueue, {
            query: {
              current,
              pageSize,
              status: status ?? 'open',
              ...(keyword?.trim() ? { keyword: keyword.trim() } : {}),
              ...(disputed ? { disputed } : {}),
            },
          })
        }
        rowSelection={{
          onChange: (_, rows) => setSelected(rows),
          getCheckboxProps: (r) => ({ disabled: r.openReports === 0 }),
        }}
        tableAlertOptionRender={() => (
          <Space wrap>
            <Button size="small" type="primary" onClick={() => setBulk('accept')}>
              批量采纳
            </Button>
            <Button size="small" danger onClick={() => setBulk('reject')}>
              批量驳回
            </Button>
            <Button size="small" disabled={selected.length < 2} onClick={() => setBulk('merge')}>
              合并重复题
            </Button>
          </Space>
        )}
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有待审核的反馈' }}
      />
      <ReviewDrawer questionId={viewing} onClose={() => setViewing(null)} onDecided={reload} />
      <BulkDecision kind={bulk} items={selected} onClose={() => setBulk(null)} onDone={reload} />
    </>
  );
}
