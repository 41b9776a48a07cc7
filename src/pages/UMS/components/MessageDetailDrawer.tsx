/**
 * One message in a drawer: its fields, the content, and the attempts timeline. While the
 * message may still be delivered it reloads every few seconds, so the user watches it land.
 */
import { formatTime } from '@/components/time';
import { errorMessageOf } from '@/requestErrorConfig';
import { fetchMessage } from '@/services/ums';
import { ReloadOutlined } from '@ant-design/icons';
import { useRequest } from 'ahooks';
import { Alert, Button, Descriptions, Divider, Drawer, Space, Spin } from 'antd';
import { useEffect } from 'react';
import AttemptTimeline from './AttemptTimeline';
import MessageActions from './MessageActions';
import MessageContent from './MessageContent';
import { PENDING_STATUSES, StatusTag } from './status';

const POLL_MS = 3000;

interface Props {
  id?: number;
  onClose: () => void;
  /** Called after resend or cancel, so the list behind the drawer reloads too. */
  onChanged?: () => void;
}

export default function MessageDetailDrawer({ id, onClose, onChanged }: Props) {
  const { data, loading, error, refresh } = useRequest(() => fetchMessage(id!, { skipErrorHandler: true }), {
    ready: id !== undefined,
    refreshDeps: [id],
  });
  const m = data?.data.id === id ? data?.data : undefined;

  useEffect(() => {
    if (!m || !PENDING_STATUSES.includes(m.status)) return;
    const timer = setTimeout(refresh, POLL_MS);
    return () => clearTimeout(timer);
  }, [m, refresh]);

  return (
    <Drawer
      open={id !== undefined}
      onClose={onClose}
      width={560}
      title={m ? `消息 #${m.id}` : '消息详情'}
      extra={
        <Space>
          {m && (
            <MessageActions
              id={m.id}
              status={m.status}
              size="middle"
              onDone={() => {
                refresh();
                onChanged?.();
              }}
            />
          )}
          <Button icon={<ReloadOutlined />} onClick={refresh} disabled={id === undefined}>
            刷新
          </Button>
        </Space>
      }
    >
      {error && !m && <Alert type="error" showIcon message={errorMessageOf(error)} />}
      {!m && !error && <Spin spinning={loading} style={{ display: 'block', marginTop: 48 }} />}
      {m && (
        <>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="标题">{m.title || '（无标题）'}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <StatusTag status={m.status} />
              {m.lastError && m.status !== 'delivered' && <span>{m.lastError}</span>}
            </Descriptions.Item>
            <Descriptions.Item label="渠道">{m.channelName ?? '（渠道已删除）'}</Descriptions.Item>
            <Descriptions.Item label="类型">{m.type}</Descriptions.Item>
            <Descriptions.Item label="来源">{m.source === 'api' ? '接口' : '网页'}</Descriptions.Item>
            <Descriptions.Item label="创建时间">{formatTime(m.createdAt)}</Descriptions.Item>
            {m.sendAt && <Descriptions.Item label="定时发送">{formatTime(m.sendAt)}</Descriptions.Item>}
            {m.nextAttemptAt && PENDING_STATUSES.includes(m.status) && (
              <Descriptions.Item label="下次尝试">{formatTime(m.nextAttemptAt)}</Descriptions.Item>
            )}
            <Descriptions.Item label="送达时间">{formatTime(m.deliveredAt)}</Descriptions.Item>
          </Descriptions>
          <Divider orientation="left">内容</Divider>
          <MessageContent content={m.content} type={m.type} />
          <Divider orientation="left">投递记录（{m.attemptLog.length} 次）</Divider>
          <AttemptTimeline attempts={m.attemptLog} />
        </>
      )}
    </Drawer>
  );
}
