/**
 * Four-eyes reveals, for administrators: other administrators' requests waiting for a decision
 * (approve or refuse, each confirmed), and my own requests with their state; an approved one shows its
 * value on demand until the approval runs out. Every step is audited on the server.
 */
import { formatTime } from '@/components/time';
import type { RevealField, RevealRequest } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { useTableSettings } from '@/components/tableSettings';
import { call } from '@/services/call';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, message, Popconfirm, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { REVEAL_LABELS, shown } from '../../labels';

const STATUS = {
  pending: { text: '待审批', color: 'processing' },
  approved: { text: '已批准', color: 'success' },
  refused: { text: '已拒绝', color: 'default' },
} as const;

const expired = (r: RevealRequest) => r.expiresAt !== null && new Date(r.expiresAt).getTime() <= Date.now();

const common: ProColumns<RevealRequest>[] = [
  // Name and number as the caller's field policy shows them: masked, or 无权查看 when hidden.
  { title: '学生', key: 'student', render: (_, r) => `${shown(r.studentName)}（${shown(r.studentNo)}）` },
  { title: '字段', dataIndex: 'field', render: (_, r) => REVEAL_LABELS[r.field] },
  { title: '原因', dataIndex: 'reason', ellipsis: true },
  { title: '申请时间', dataIndex: 'createdAt', render: (_, r) => formatTime(r.createdAt) },
];

function Pending() {
  const ref = useRef<ActionType>(null);
  const tableSettings = useTableSettings('njit.revealsPending');
  const decide = async (r: RevealRequest, decision: 'approve' | 'refuse') => {
    try {
      await call(njitApi.decideRevealRequest, { params: { id: r.id }, body: { decision } });
      message.success(decision === 'approve' ? '已批准' : '已拒绝');
    } catch {
      // the request layer has shown the error (e.g. decided meanwhile by someone else)
    }
    await ref.current?.reload();
  };
  return (
    <ProTable<RevealRequest>
      actionRef={ref}
      rowKey="id"
      headerTitle="待我审批"
      search={false}
      {...tableSettings}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 10 }}
      locale={{ emptyText: '没有待审批的申请' }}
      request={({ current, pageSize }) =>
        call(njitApi.listRevealRequests, { query: { scope: 'pending', current, pageSize } })
      }
      columns={[
        { title: '申请人', dataIndex: 'requesterName' },
        ...common,
        {
          title: '操作',
          key: 'actions',
          render: (_, r) => (
            <Space>
              <Popconfirm
                title={`批准 ${r.requesterName} 查看 ${shown(r.studentName)} 的完整${REVEAL_LABELS[r.field]}？`}
                okText="批准"
                cancelText="取消"
                onConfirm={() => decide(r, 'approve')}
              >
                <Button type="link" size="small">
                  批准
                </Button>
              </Popconfirm>
              <Popconfirm title="拒绝这项申请？" okText="拒绝" cancelText="取消" onConfirm={() => decide(r, 'refuse')}>
                <Button type="link" size="small" danger>
                  拒绝
                </Button>
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}

function Mine() {
  const ref = useRef<ActionType>(null);
  const tableSettings = useTableSettings('njit.revealsMine');
  const [values, setValues] = useState<Record<number, { field: RevealField; value: string | null }>>({});
  const show = async (r: RevealRequest) => {
    try {
      const res = await call(njitApi.revealApproved, { params: { id: r.id } });
      setValues((v) => ({ ...v, [r.id]: res.data }));
    } catch {
      await ref.current?.reload(); // expired or withdrawn meanwhile: show the current state
    }
  };
  return (
    <ProTable<RevealRequest>
      actionRef={ref}
      rowKey="id"
      headerTitle="我的申请"
      search={false}
      {...tableSettings}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 10 }}
      locale={{ emptyText: '还没有申请：在学生详情中对需审批的字段点击“申请查看”' }}
      request={({ current, pageSize }) =>
        call(njitApi.listRevealRequests, { query: { scope: 'mine', current, pageSize } })
      }
      columns={[
        ...common,
        {
          title: '状态',
          dataIndex: 'status',
          render: (_, r) =>
            r.status === 'approved' && expired(r) ? (
              <Tag>已过期</Tag>
            ) : (
              <Tag color={STATUS[r.status].color}>{STATUS[r.status].text}</Tag>
            ),
        },
        {
          title: '审批人',
          dataIndex: 'deciderName',
          render: (_, r) => (r.deciderName ? `${r.deciderName}（${formatTime(r.decidedAt)}）` : '-'),
        },
        {
          title: '可查看至',
          dataIndex: 'expiresAt',
          render: (_, r) => (r.status === 'approved' ? formatTime(r.expiresAt) : '-'),
        },
        {
          title: '完整值',
          key: 'value',
          render: (_, r) => {
            if (r.id in values) {
              return (
                <Typography.Text copyable data-testid={`approved-value-${r.id}`}>
                  {values[r.id]!.value ?? '-'}
                </Typography.Text>
              );
            }
            if (r.status !== 'approved' || expired(r)) return '-';
            return (
              <Button type="link" size="small" onClick={() => show(r)}>
                查看
              </Button>
            );
          },
        },
      ]}
    />
  );
}

export default function RevealRequests() {
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Pending />
      <Mine />
    </Space>
  );
}
