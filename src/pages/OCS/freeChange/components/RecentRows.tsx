/** The user's latest daily claims and redemptions, from the ledger. */
import { formatTime } from '@/components/time';
import { LEDGER_KIND_LABELS, type LedgerItem } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import { fetchLedger } from '@/services/ledger';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Card, Table, Tag, type TableColumnsType } from 'antd';

const columns: TableColumnsType<LedgerItem> = [
  { title: '时间', dataIndex: 'createdAt', width: 150, render: (t: string) => formatTime(t) },
  {
    title: '类型',
    dataIndex: 'kind',
    width: 100,
    render: (_, r) => <Tag color={r.kind === 'free' ? 'green' : 'gold'}>{LEDGER_KIND_LABELS[r.kind]}</Tag>,
  },
  {
    title: '积分',
    dataIndex: 'amount',
    width: 80,
    render: (a: number) => <span style={{ color: '#389e0d' }}>+{a}</span>,
  },
  { title: '余额', dataIndex: 'balanceAfter', width: 80 },
  { title: '说明', dataIndex: 'memo', ellipsis: true },
];

/** `version` changes whenever a claim or redemption may have added a row. */
export default function RecentRows({ version }: { version: number }) {
  const { data, error, loading } = useRequest(
    () => fetchLedger({ kind: ['free', 'redeem'], current: 1, pageSize: 10 }, { skipErrorHandler: true }),
    { refreshDeps: [version] },
  );
  return (
    <Card title="最近领取与兑换" extra={<Link to="/OCS/bill">全部账单</Link>}>
      {error && (
        <Alert type="error" showIcon message={`记录加载失败：${errorMessageOf(error)}`} style={{ marginBottom: 12 }} />
      )}
      <Table<LedgerItem>
        rowKey="id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={data?.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '还没有领取或兑换记录' }}
      />
    </Card>
  );
}
