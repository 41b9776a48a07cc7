/** Per channel: last success, last error (with DingTalk's reason) and any throttle in force. */
import { formatTime } from '@/components/time';
import type { UmsStats } from '@/contract';
import { Link } from '@umijs/max';
import { Card, Table, Tag, Typography, type TableColumnsType } from 'antd';

type Row = UmsStats['channels'][number];

const columns: TableColumnsType<Row> = [
  { title: '渠道', dataIndex: 'name' },
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
