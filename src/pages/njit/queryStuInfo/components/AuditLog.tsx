/** The njit audit log for administrators: filter by action, user and time; export as CSV. */
import { formatTime } from '@/components/time';
import { NJIT_AUDIT_ACTIONS, type NjitAuditEntry } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import type { InputOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { urlOf } from '@/services/url';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import { Button, Typography } from 'antd';
import { useState } from 'react';
import { AUDIT_ACTION_LABELS, REVEAL_LABELS } from '../../labels';
import { useTableSettings } from '@/components/tableSettings';

type Filters = { action?: string; userName?: string; createdAt?: [string, string]; studentId?: number };
type AuditQuery = NonNullable<InputOf<typeof njitApi.listAudit>['query']>;

function toParams(f: Filters): Omit<AuditQuery, 'current' | 'pageSize' | 'studentId'> & { studentId?: number } {
  const [from, to] = f.createdAt ?? [];
  return {
    action: f.action as AuditQuery['action'],
    userName: f.userName?.trim() || undefined,
    from: from ? new Date(from).toISOString() : undefined,
    to: to ? new Date(to).toISOString() : undefined,
    studentId: f.studentId || undefined,
  };
}

function describe(e: NjitAuditEntry): string {
  const c = e.criteria ?? {};
  if (e.action === 'reveal' || e.action === 'reveal_request' || e.action === 'reveal_decide') {
    const what = `${REVEAL_LABELS[c.field as 'phone' | 'idCard'] ?? c.field}（学生 #${c.id}）`;
    const decided = c.decision === 'approve' ? '，批准' : c.decision === 'refuse' ? '，拒绝' : '';
    return c.request ? `${what}，申请 #${c.request}${decided}` : what;
  }
  if (e.action === 'import') return `文件 ${String(c.fileName ?? '')}`;
  const { current: _c, pageSize: _p, ...rest } = c;
  return Object.entries(rest)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('，');
}

export default function AuditLog() {
  const tableSettings = useTableSettings('njit.audit');
  const [filters, setFilters] = useState<Filters>({});
  return (
    <ProTable<NjitAuditEntry, Filters>
      rowKey="id"
      headerTitle="审计日志"
      search={{ labelWidth: 'auto' }}
      {...tableSettings}
      scroll={{ x: 'max-content' }}
      pagination={{ defaultPageSize: 20 }}
      request={async ({ current, pageSize, ...f }) => {
        setFilters(f);
        return call(njitApi.listAudit, { query: { current, pageSize, ...toParams(f) } });
      }}
      toolBarRender={() => [
        <Button
          key="export"
          icon={<DownloadOutlined aria-hidden />}
          href={urlOf(njitApi.exportAudit, { query: toParams(filters) })}
        >
          导出 CSV
        </Button>,
      ]}
      columns={[
        {
          title: '时间',
          dataIndex: 'createdAt',
          valueType: 'dateTimeRange',
          render: (_, r) => formatTime(r.createdAt),
        },
        { title: '用户', dataIndex: 'userName' },
        {
          title: '操作',
          dataIndex: 'action',
          valueType: 'select',
          valueEnum: Object.fromEntries(NJIT_AUDIT_ACTIONS.map((a) => [a, { text: AUDIT_ACTION_LABELS[a] }])),
        },
        {
          title: '学生记录编号',
          dataIndex: 'studentId',
          valueType: 'digit',
          hideInTable: true,
          tooltip: '只看涉及这名学生的记录（列出过、查看过、查看过敏感字段或导出过）：导出即为该学生的访问报告',
          fieldProps: { min: 1, precision: 0 },
        },
        { title: 'IP', dataIndex: 'ip', search: false },
        {
          title: '条件 / 对象',
          key: 'criteria',
          search: false,
          render: (_, r) => <Typography.Text>{describe(r)}</Typography.Text>,
        },
        { title: '结果数', dataIndex: 'resultCount', search: false },
        {
          title: '记录编号',
          dataIndex: 'recordIds',
          search: false,
          ellipsis: true,
          render: (_, r) => r.recordIds.join(', ') || '-',
        },
        { title: '原因', dataIndex: 'reason', search: false, render: (_, r) => r.reason ?? '-' },
      ]}
    />
  );
}
