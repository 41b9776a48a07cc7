/** Per channel: its kind, success rate over 7 days, last success, last error (with the service's reason) and any pause. */
import { formatTime } from '@/components/time';
import type { UmsStats } from '@/contract';
import { Link } from '@umijs/max';
import { Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { KindTag, rateText } from '../../components/kinds';

type Row = UmsStats['channels'][number];

const columns: TableColumnsType<Row> = [
  { title: '渠道', dataIndex: 'name' },
  { title: '类型', dataIndex: 'kind', render: (_, c) => <KindTag kind={c.kind} /> },
  { title: '成功率（7 天）', key: 'rate', render: (_, c) => rateText(c.health) },
  { title: '最近成功', dataIndex: 'lastSuccessAt', render: (t) => formatTime(t, '暂无') },
  {
    title: '最近错误',
    dataIndex: 'lastErrorAt',
    render: (_, c) =>
      c.lastErrorAt ? (
        <>
          {formatTime(c.lastErrorAt)} <Typography.Text type="danger">{c.lastError}</Typography.Text>
        </>
      ) : (
        '无'
      ),
  },
  {
    title: '限流',
    dataIndex: 'throttledUntil',
    render: (t: string | null) =>
      t && new Date(t).getTime() > Date.now() ? (
        <Tag color="orange">限流至 {formatTime(t)}</Tag>
      ) : (
        <Tag color="green">正常</Tag>
      ),
  },
];

export default function ChannelHealth({ channels }: { channels: Row[] }) {
  return (
    <Card title="渠道健康" extra={<Link to="/UMS/self">管理渠道</Link>}>
      <Table<Row>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={channels}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
