/**
 * Every delivery attempt of a message: time, outcome, the channel's kind, the answer (HTTP status and
 * the service's code and message; the SMTP reply for e-mail; or the server's Chinese description when
 * nobody answered, its detail behind 详情), duration.
 */
import { formatTime } from '@/components/time';
import type { MessageAttempt } from '@/contract';
import { Empty, Space, Tag, Timeline, Typography } from 'antd';
import ErrorDetail from './ErrorDetail';
import { KindTag } from './kinds';
import { OUTCOME_LABELS } from './status';

function Answer({ a }: { a: MessageAttempt }) {
  if (a.channelKind === 'email') return <span>SMTP {a.errcode ?? '无应答'}</span>;
  return (
    <Space wrap size={12}>
      <span>HTTP {a.httpStatus ?? '无应答'}</span>
      {a.channelKind !== 'webhook' && (
        <span>
          {a.channelKind === 'feishu' ? 'code' : 'errcode'} {a.errcode ?? '-'}
        </span>
      )}
    </Space>
  );
}

function AttemptItem({ a, showKind }: { a: MessageAttempt; showKind: boolean }) {
  const outcome = OUTCOME_LABELS[a.outcome];
  const answered = a.channelKind === 'email' ? a.errcode !== null : a.httpStatus !== null;
  const label = a.channelKind === 'email' ? '应答' : a.channelKind === 'webhook' ? '应答内容' : 'errmsg';
  return (
    <Space direction="vertical" size={2} data-testid="attempt">
      <Space wrap>
        <Typography.Text strong>{formatTime(a.at)}</Typography.Text>
        <Tag color={outcome.color}>{outcome.text}</Tag>
        {showKind && a.channelKind && <KindTag kind={a.channelKind} />}
        <Typography.Text type="secondary">耗时 {a.durationMs} ms</Typography.Text>
      </Space>
      <Answer a={a} />
      {a.errmsg && (
        <span>
          <Typography.Text
            type={a.outcome === 'delivered' ? undefined : a.outcome === 'interrupted' ? 'warning' : 'danger'}
          >
            {/* Without an answer the text is the server's Chinese description, not the service's own. */}
            {answered ? `${label}：${a.errmsg}` : a.errmsg}
          </Typography.Text>
          <ErrorDetail detail={a.detail} />
        </span>
      )}
    </Space>
  );
}

export default function AttemptTimeline({ attempts }: { attempts: MessageAttempt[] }) {
  if (attempts.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有投递记录" />;
  // A message that moved along a fallback chain names each attempt's channel kind.
  const showKind = new Set(attempts.map((a) => a.channelId)).size > 1;
  return (
    <Timeline
      items={attempts.map((a) => ({
        key: a.id,
        color: OUTCOME_LABELS[a.outcome].color,
        children: <AttemptItem a={a} showKind={showKind} />,
      }))}
    />
  );
}
