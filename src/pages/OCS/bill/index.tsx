/**
 * /OCS/bill: the points ledger, newest first, filtered by kind and calendar days; the CSV export
 * downloads exactly the rows of the current filter, and the header shows the balance now.
 */
import type { LedgerItem, LedgerKind } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import { fetchLedger, ledgerCsvUrl, type LedgerFilter } from '@/services/ledger';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { DownloadOutlined } from '@ant-design/icons';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Empty, Statistic } from 'antd';
import { useState } from 'react';
import ReportModal from '../components/ReportModal';
import { ledgerColumns } from './columns';
import { useTableSettings } from '@/components/tableSettings';

interface Query {
  kind?: LedgerKind[];
  from?: string;
  to?: string;
}

export default function BillPage() {
  const tableSettings = useTableSettings('OCS.bill');
  const wallet = useRequest(() => call(ocsApi.wallet, {}, { skipErrorHandler: true }));
  // The filter the table last asked for: the export must match what the user is looking at.
  const [filter, setFilter] = useState<LedgerFilter>({});
  // A charge for an answer can be reported as wrong from here (反馈答案).
  const [reporting, setReporting] = useState<number | null>(null);
  const columns = [
    ...ledgerColumns,
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right' as const,
      key: 'report',
      search: false as const,
      render: (_: unknown, l: LedgerItem) =>
        l.kind === 'charge' && l.queryId !== null ? (
          <Button type="link" size="small" danger style={{ padding: 0 }} onClick={() => setReporting(l.queryId)}>
            答案有误
          </Button>
        ) : (
          '-'
        ),
    },
  ];

  return (
    <PageContainer
      title="账单"
      content="每一笔积分变动：查询扣费、每日领取、兑换码、管理员调整与退款。"
      extra={
        <Statistic
          title="当前余额"
          value={wallet.data?.data.balance ?? '-'}
          suffix="积分"
          loading={wallet.loading && !wallet.data}
        />
      }
    >
      <ProTable<LedgerItem, Query>
        rowKey="id"
        headerTitle="积分明细"
        columns={columns}
        request={({ current, pageSize, kind, from, to }) => {
          setFilter({ kind: kind?.length ? kind : undefined, from, to });
          return fetchLedger({ current, pageSize, kind: kind?.length ? kind : undefined, from, to });
        }}
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: (
            <Empty description="没有符合条件的账单">
              <Link to="/OCS/freeChange">领取每日免费积分</Link>
            </Empty>
          ),
        }}
        toolBarRender={() => [
          <Button key="csv" icon={<DownloadOutlined aria-hidden />} href={ledgerCsvUrl(filter)} download>
            导出 CSV
          </Button>,
        ]}
      />
      <ReportModal queryId={reporting} onClose={() => setReporting(null)} />
    </PageContainer>
  );
}
