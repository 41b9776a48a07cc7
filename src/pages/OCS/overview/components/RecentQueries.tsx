/** The ten latest queries, from the OCS script or the ask form. */
import { formatTime } from '@/components/time';
import type { QueryLogItem } from '@/contract';
import { Link } from '@umijs/max';
import { Card, Empty, Table, type TableColumnsType } from 'antd';
import { CostText, OutcomeTag } from '../../components/outcome';

const columns: TableColumnsType<QueryLogItem> = [
  { title: '时间', dataIndex: 'createdAt', width: 150, render: (t: string) => formatTime(t) },
  { title: '题目', dataIndex: 'title', ellipsis: true },
  { title: '结果', dataIndex: 'outcome', width: 130, render: (_, q) => <OutcomeTag outcome={q.outcome} /> },
  { title: '扣费', dataIndex: 'cost', width: 72, render: (c: number) => <CostText cost={c} /> },
];

export default function RecentQueries({ recent }: { recent: QueryLogItem[] }) {
  return (
    <Card title="最近查询" extra={<Link to="/OCS/askQuestion">全部记录</Link>}>
      <Table<QueryLogItem>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={recent}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有查询记录">
              <Link to="/OCS/askQuestion">在线提问试一试</Link>
            </Empty>
          ),
        }}
      />
    </Card>
  );
}
