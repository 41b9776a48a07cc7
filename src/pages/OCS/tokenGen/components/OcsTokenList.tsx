/** The user's active tokens that can query OCS; revoking and the rest live on /user/tokenManage. */
import { formatTime } from '@/components/time';
import type { TokenInfo } from '@/contract';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty, Table, Typography, type TableColumnsType } from 'antd';

const columns: TableColumnsType<TokenInfo> = [
  { title: '名称', dataIndex: 'name', ellipsis: true },
  { title: '前缀', dataIndex: 'prefix', render: (p: string) => <Typography.Text code>{p}…</Typography.Text> },
  { title: '过期时间', dataIndex: 'expiresAt', render: (t: string | null) => formatTime(t, '永不过期') },
  { title: '最近使用', dataIndex: 'lastUsedAt', render: (t: string | null) => formatTime(t, '从未使用') },
];

export default function OcsTokenList({ refreshKey }: { refreshKey: number }) {
  // A user holds at most 20 active tokens, so one page of 100 is all of them.
  const { data, loading } = useRequest(
    () => call(userApi.listTokens, { query: { current: 1, pageSize: 100, status: 'active' } }),
    {
      refreshDeps: [refreshKey],
    },
  );
  const rows = (data?.data ?? []).filter((t) => t.scopes.includes('ocs:query'));
  return (
    <Card title="我的 OCS 令牌" extra={<Link to="/user/tokenManage">管理全部令牌</Link>}>
      <Table<TokenInfo>
        rowKey="id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有可查询 OCS 的有效令牌" /> }}
      />
    </Card>
  );
}
