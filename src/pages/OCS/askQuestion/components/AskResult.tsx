/** What one ask produced: the answer card, OCS's `msg` when nothing was found, or the rate limit. */
import type { OcsQueryResult } from '@/contract';
import { Alert, Card, Descriptions, Tag, Typography } from 'antd';

export type AskOutcome = { kind: 'result'; result: OcsQueryResult } | { kind: 'tooFast'; retryAfter?: number };

export default function AskResult({ outcome }: { outcome: AskOutcome }) {
  if (outcome.kind === 'tooFast') {
    const wait = outcome.retryAfter ? `请 ${outcome.retryAfter} 秒后再试` : '请稍后再试';
    return <Alert type="warning" showIcon message="请求过快" description={`提问太频繁，${wait}。`} />;
  }
  const r = outcome.result;
  if (r.code === 0) return <Alert type="warning" showIcon message="没有找到答案" description={r.msg} />;
  return (
    <Card title="查询结果" size="small" data-testid="ask-result">
      <Descriptions column={1} size="small">
        <Descriptions.Item label="答案">
          <Typography.Text strong copyable>
            {r.answer}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="匹配到的题目">{r.question}</Descriptions.Item>
        <Descriptions.Item label="来源">
          {r.source === 'bank' ? <Tag color="blue">题库</Tag> : <Tag color="purple">AI</Tag>}
        </Descriptions.Item>
        <Descriptions.Item label="本次扣费">{r.cost > 0 ? `${r.cost} 积分` : '未扣费'}</Descriptions.Item>
        <Descriptions.Item label="余额">{r.balance} 积分</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
