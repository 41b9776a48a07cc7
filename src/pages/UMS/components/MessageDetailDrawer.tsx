/**
 * One message in a drawer: its fields, the content, and the attempts timeline. While the
 * message may still be delivered it reloads every few seconds, so the user watches it land.
 */
import { formatTime } from '@/components/time';
import { PRIORITY_LABELS, type Channel, type MessageDetail } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { usePoll } from '@/components/tabs/paneShown';
import { ReloadOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Button, Descriptions, Divider, Drawer, Space, Spin, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import AttemptTimeline from './AttemptTimeline';
import MessageActions from './MessageActions';
import MessageContent from './MessageContent';
import { PENDING_STATUSES, StatusTag } from './status';

const POLL_MS = 3000;

/** Where a message came from, as its detail names it. */
const SOURCE_NAMES: Record<MessageDetail['source'], string> = {
  ui: '网页',
  api: '接口',
  digest: '溢出摘要（合并了被限速的消息）',
  notification: '门户通知转发',
};

/** Where the final outcome's callback stands. */
function CallbackState({ callback }: { callback: MessageDetail['callback'] }) {
  if (!callback) return <>消息有最终结果后发送</>;
  if (callback.status === 'sent')
    return (
      <>
        已送达（{formatTime(callback.sentAt)}，第 {callback.attempts} 次）
      </>
    );
  if (callback.status === 'failed') return <Typography.Text type="danger">{callback.error}</Typography.Text>;
  return (
    <>
      发送中
      {callback.error && (
        <Typography.Text type="warning">
          ：{callback.error}，{formatTime(callback.nextAt)} 重试
        </Typography.Text>
      )}
    </>
  );
}

interface Props {
  id?: number;
  onClose: () => void;
  /** Called after resend or cancel, so the list behind the drawer reloads too. */
  onChanged?: () => void;
  /** The user's channels, to name a fallback chain's next channels. */
  channels?: Channel[];
}

export default function MessageDetailDrawer({ id, onClose, onChanged, channels = [] }: Props) {
  const nameOf = (channelId: number) => channels.find((c) => c.id === channelId)?.name ?? `#${channelId}`;
  const { data, loading, error, refresh } = useRequest(
    () => call(umsApi.getMessage, { params: { id: id! } }, { skipErrorHandler: true }),
    {
      ready: id !== undefined,
      refreshDeps: [id],
    },
  );
  const m = data?.data.id === id ? data?.data : undefined;

  // Opening an unread message reads it (once), and the list behind learns of it.
  const unreadId = m && !m.readAt ? m.id : undefined;
  const marked = useRef(new Set<number>());
  const changed = useRef(onChanged);
  changed.current = onChanged;
  useEffect(() => {
    if (unreadId === undefined || marked.current.has(unreadId)) return;
    marked.current.add(unreadId);
    call(umsApi.markRead, { params: { id: unreadId } }, { skipErrorHandler: true })
      .then(() => changed.current?.())
      .catch(() => marked.current.delete(unreadId)); // still unread: it stays marked in the list
  }, [unreadId]);

  // Reloads while the message may still be delivered, and not while the page is out of view.
  usePoll(refresh, POLL_MS, !!m && PENDING_STATUSES.includes(m.status), m);

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
          <Button icon={<ReloadOutlined aria-hidden />} onClick={refresh} disabled={id === undefined}>
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
            {m.fallbackChannelIds.length > 0 && (
              <Descriptions.Item label="备用渠道">
                {m.fallbackChannelIds.map(nameOf).join(' → ')}（当前渠道永久失败时依次使用）
              </Descriptions.Item>
            )}
            {m.groupId !== null && (
              <Descriptions.Item label="群发">同一次发送到多个渠道（第一条为 #{m.groupId}）</Descriptions.Item>
            )}
            <Descriptions.Item label="优先级">{PRIORITY_LABELS[m.priority]}</Descriptions.Item>
            {m.callbackUrl && (
              <Descriptions.Item label="结果回调">
                <CallbackState callback={m.callback} />
              </Descriptions.Item>
            )}
            <Descriptions.Item label="类型">{m.type}</Descriptions.Item>
            <Descriptions.Item label="来源">{SOURCE_NAMES[m.source]}</Descriptions.Item>
            {m.digestId !== null && (
              <Descriptions.Item label="摘要">
                与其他消息合并为 <Link to={`/UMS/queryMessage?id=${m.digestId}`}>摘要 #{m.digestId}</Link>{' '}
                发送，投递记录即摘要的记录
              </Descriptions.Item>
            )}
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
