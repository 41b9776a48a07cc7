/**
 * What one ask produced: the answer card (with where the answer came from, how sure it is, and 答案有误？
 * to report it), OCS's `msg` when nothing was found, or the rate limit.
 */
import { answerText, provenanceLabel, type OcsQueryResult } from '@/contract';
import { Alert, Button, Card, Descriptions, Progress, Tag, Typography } from 'antd';
import { useState } from 'react';
import ReportModal from '../../components/ReportModal';

export type AskOutcome = { kind: 'result'; result: OcsQueryResult } | { kind: 'tooFast'; retryAfter?: number };

const SOURCE_COLORS: Record<string, string> = { import: 'blue', verified: 'green', ai: 'purple', corrected: 'cyan' };

export function SourceTag({ source }: { source: string }) {
  return <Tag color={SOURCE_COLORS[source] ?? 'geekblue'}>{provenanceLabel(source)}</Tag>;
}

export default function AskResult({ outcome, onReported }: { outcome: AskOutcome; onReported?: () => void }) {
  const [reporting, setReporting] = useState<number | null>(null);
  if (outcome.kind === 'tooFast') {
    const wait = outcome.retryAfter ? `请 ${outcome.retryAfter} 秒后再试` : '请稍后再试';
    return <Alert type="warning" showIcon message="请求过快" description={`提问太频繁，${wait}。`} />;
  }
  const r = outcome.result;
  if (r.code === 0) return <Alert type="warning" showIcon message="没有找到答案" description={r.msg} />;
  const percent = Math.round(r.confidence * 100);
  return (
    <Card
      title="查询结果"
      size="small"
      data-testid="ask-result"
      extra={
        r.queryId !== undefined && (
          <Button size="small" danger type="link" onClick={() => setReporting(r.queryId!)}>
            答案有误？
          </Button>
        )
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="答案">
          <Typography.Text strong copyable>
            {answerText(r.answer)}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label="匹配到的题目">{r.question}</Descriptions.Item>
        <Descriptions.Item label="来源">
          <SourceTag source={r.source} />
        </Descriptions.Item>
        <Descriptions.Item label="置信度">
          <Progress
            percent={percent}
            size="small"
            style={{ maxWidth: 200, marginBottom: 0 }}
            status={percent < 60 ? 'exception' : 'normal'}
            format={(p) => `${p}%`}
            aria-label="置信度"
          />
        </Descriptions.Item>
        <Descriptions.Item label="本次扣费">{r.cost > 0 ? `${r.cost} 积分` : '未扣费'}</Descriptions.Item>
        <Descriptions.Item label="余额">{r.balance} 积分</Descriptions.Item>
      </Descriptions>
      <ReportModal queryId={reporting} onClose={() => setReporting(null)} onReported={onReported} />
    </Card>
  );
}
