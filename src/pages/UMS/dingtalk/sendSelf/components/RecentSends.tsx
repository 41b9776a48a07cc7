/** The last 5 messages, newest first; reloads while one of them may still be delivered. */
import { formatTime } from '@/components/time';
import type { MessageSummary } from '@/contract';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { ReloadOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, List, Space, Typography } from 'antd';
import { PENDING_STATUSES, StatusTag } from '../../../components/status';
import ListEntry from '@/components/ListEntry';
import { usePoll } from '@/components/tabs/paneShown';

const POLL_MS = 3000;

function Item({ m }: { m: MessageSummary }) {
  return (
    <List.Item extra={<Link to={`/UMS/queryMessage?id=${m.id}`}>详情</Link>}>
      <ListEntry
        title={
          <Space wrap>
            <StatusTag status={m.status} />
            <span>{m.title || m.content.slice(0, 40)}</span>
          </Space>
        }
        description={
          <Space wrap>
            <span>{formatTime(m.createdAt)}</span>
            {m.channelName && <span>{m.channelName}</span>}
            {m.lastError && m.status !== 'delivered' && <Typography.Text type="danger">{m.lastError}</Typography.Text>}
          </Space>
        }
      />
    </List.Item>
  );
}

export default function RecentSends({ version }: { version: number }) {
  const { data, loading, refresh } = useRequest(
    () => call(umsApi.listMessages, { query: { current: 1, pageSize: 5 } }),
    {
      refreshDeps: [version],
    },
  );
  const rows = data?.data ?? [];

  // Reloads while a message may still be delivered, and not while the page is out of view.
  usePoll(refresh, POLL_MS, !!data?.data.some((m) => PENDING_STATUSES.includes(m.status)), data);

  return (
    <Card
      title="最近发送"
      extra={
        <Space>
          <Button size="small" icon={<ReloadOutlined aria-hidden />} onClick={refresh}>
            刷新
          </Button>
          <Link to="/UMS/queryMessage">全部消息</Link>
        </Space>
      }
    >
      <List<MessageSummary>
        loading={loading && !data}
        dataSource={rows}
        rowKey="id"
        locale={{ emptyText: '还没有发送过消息' }}
        renderItem={(m) => <Item m={m} />}
      />
    </Card>
  );
}
