/** The administrator audit log, newest first (the server orders it), filterable by target and action. */
import { formatTime } from '@/components/time';
import { AUDIT_ACTION_LABELS, type AuditEntry } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Typography } from 'antd';
import { auditDiff } from './auditDiff';
import { useTableSettings } from '@/components/tableSettings';

const ACTION_ENUM = Object.fromEntries(Object.entries(AUDIT_ACTION_LABELS).map(([k, text]) => [k, { text }]));

const columns: ProColumns<AuditEntry>[] = [
  { title: '时间', dataIndex: 'createdAt', search: false, render: (_, a) => formatTime(a.createdAt) },
  { title: '操作人', dataIndex: 'actorName', search: false },
  { title: '操作', dataIndex: 'action', valueType: 'select', valueEnum: ACTION_ENUM },
  {
    title: '目标用户 ID',
    dataIndex: 'targetId',
    hideInTable: true,
    fieldProps: { placeholder: '用户 ID（uid）' },
  },
  {
    title: '对象',
    dataIndex: 'targetName',
    search: false,
    render: (_, a) => (
      <>
        {a.targetName ?? '-'}
        {a.targetId && <Typography.Text type="secondary">（uid {a.targetId}）</Typography.Text>}
      </>
    ),
  },
  {
    title: '变更',
    dataIndex: 'after',
    search: false,
    render: (_, a) => {
      const lines = auditDiff(a.before, a.after);
      if (lines.length === 0) return '-';
      return lines.map((l) => (
        <div key={l.field}>
          <Typography.Text type="secondary">{l.label}：</Typography.Text>
          {l.text}
        </div>
      ));
    },
  },
  { title: 'IP', dataIndex: 'ip', search: false, render: (_, a) => a.ip ?? '-' },
];

export default function AuditTable({ targetId }: { targetId?: string }) {
  const tableSettings = useTableSettings('user.admin.audit');
  return (
    <ProTable<AuditEntry, { targetId?: string; action?: string }>
      rowKey="id"
      headerTitle="审计日志"
      columns={columns}
      form={{ initialValues: { targetId } }}
      request={({ current, pageSize, targetId: t, action }) =>
        call(userApi.adminAudit, {
          query: { current, pageSize, ...(t?.trim() ? { targetId: t.trim() } : {}), ...(action ? { action } : {}) },
        })
      }
      pagination={TABLE_PAGINATION}
      search={{ labelWidth: 'auto' }}
      {...tableSettings}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: '暂无审计记录' }}
    />
  );
}
