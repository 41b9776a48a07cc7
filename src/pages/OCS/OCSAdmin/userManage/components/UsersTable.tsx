/** OCS users with their wallet and usage; sort by balance or last query; adjust or inspect a balance. */
import { formatTime } from '@/components/time';
import type { OcsAdminUser, OcsAdminUserListQuery } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import AdjustBalanceModal from './AdjustBalanceModal';
import LedgerDrawer from './LedgerDrawer';
import ActionLink from '@/components/ActionLink';
import { useTableSettings } from '@/components/tableSettings';

type SortState = Record<string, 'ascend' | 'descend' | null | undefined>;

export function toQuery(
  params: { current?: number; pageSize?: number; keyword?: string },
  sort: SortState,
): OcsAdminUserListQuery {
  const sorted = Object.entries(sort).find(([k, v]) => v && (k === 'balance' || k === 'lastQueryAt'));
  const keyword = params.keyword?.trim();
  return {
    current: params.current ?? 1,
    pageSize: params.pageSize ?? 10,
    ...(keyword ? { keyword } : {}),
    sortBy: (sorted?.[0] as 'balance' | 'lastQueryAt' | undefined) ?? 'createdAt',
    order: sorted?.[1] === 'ascend' ? 'ascend' : 'descend',
  };
}

export default function UsersTable() {
  const tableSettings = useTableSettings('OCS.admin.users');
  const actionRef = useRef<ActionType>();
  const [adjusting, setAdjusting] = useState<OcsAdminUser | null>(null);
  const [ledgerOf, setLedgerOf] = useState<OcsAdminUser | null>(null);

  const columns: ProColumns<OcsAdminUser>[] = [
    { title: '关键字', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '用户名或昵称' } },
    {
      title: '用户',
      dataIndex: 'username',
      search: false,
      render: (_, u) => (
        <Space direction="vertical" size={0}>
          <span>{u.username}</span>
          {u.nickname && <Typography.Text type="secondary">{u.nickname}</Typography.Text>}
        </Space>
      ),
    },
    { title: '余额', dataIndex: 'balance', search: false, sorter: true },
    { title: '今日查询', dataIndex: 'queriesToday', search: false },
    { title: '累计查询', dataIndex: 'queriesTotal', search: false },
    { title: 'AI 花费', dataIndex: 'aiSpend', search: false },
    {
      title: '最近查询',
      dataIndex: 'lastQueryAt',
      search: false,
      sorter: true,
      render: (_, u) => formatTime(u.lastQueryAt, '从未'),
    },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      render: (_, u) => [
        <ActionLink key="adjust" onClick={() => setAdjusting(u)}>
          调整余额
        </ActionLink>,
        <ActionLink key="ledger" onClick={() => setLedgerOf(u)}>
          明细
        </ActionLink>,
      ],
    },
  ];

  return (
    <>
      <ProTable<OcsAdminUser, { keyword?: string }>
        rowKey="id"
        headerTitle="OCS 用户"
        actionRef={actionRef}
        columns={columns}
        request={(params, sort) => call(ocsAdminApi.listUsers, { query: toQuery(params, sort) })}
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有符合条件的用户' }}
      />
      <AdjustBalanceModal
        user={adjusting}
        onClose={() => setAdjusting(null)}
        onDone={() => actionRef.current?.reload()}
      />
      <LedgerDrawer user={ledgerOf} onClose={() => setLedgerOf(null)} />
    </>
  );
}
