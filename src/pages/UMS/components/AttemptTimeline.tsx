/**
 * Every delivery attempt of a message: time, outcome, HTTP status, DingTalk errcode/errmsg (or the
 * server's Chinese description when DingTalk did not answer, its detail behind 详情), duration.
 */
import { formatTime } from '@/components/time';
import type { MessageAttempt } from '@/contract';
import { Empty, Space, Tag, Timeline, Typography } from 'antd';
import ErrorDetail from './ErrorDetail';
import { OUTCOME_LABELS } from './status';

function AttemptItem({ a }: { a: MessageAttempt }) {
  const outcome = OUTCOME_LABELS[a.outcome];
  return (
    <Space direction="vertical" size={2} data-testid="attempt">
      <Space wrap>
        <Typography.Text strong>{formatTime(a.at)}</Typography.Text>
        <Tag color={outcome.color}>{outcome.text}</Tag>
        <Typography.Text type="secondary">耗时 {a.durationMs} ms</Typography.Text>
      </Space>
      <Space wrap size={12}>
        <span>HTTP {a.httpStatus ?? '无应答'}</span>
        <span>errcode {a.errcode ?? '-'}</span>
      </Space>
      {a.errmsg && (
        <span>
          <Typography.Text type={a.outcome === 'delivered' ? undefined : 'danger'}>
            {/* Without an answer the text is the server's Chinese description, not DingTalk's errmsg. */}
            {a.httpStatus === null ? a.errmsg : `errmsg：${a.errmsg}`}
          </Typography.Text>
          <ErrorDetail detail={a.detail} />
        </span>
      )}
    </Space>
  );
}

export default function AttemptTimeline({ attempts }: { attempts: MessageAttempt[] }) {
  if (attempts.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有投递记录" />;
  return (
    <Timeline
      items={attempts.map((a) => ({
        key: a.id,
        color: OUTCOME_LABELS[a.outcome].color,
        children: <AttemptItem a={a} />,
      }))}
    />
  );
}
