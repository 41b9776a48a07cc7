/** What one test question got from a model: latency, the raw reply and the parsed answer (or why not). */
import type { AiModelTestResult } from '@/contract';
import { Alert, Descriptions, Typography } from 'antd';

export default function ModelTestResult({ name, result }: { name: string; result: AiModelTestResult }) {
  return (
    <div data-testid="model-test-result">
      <Alert
        type={result.ok ? 'success' : 'error'}
        showIcon
        style={{ marginBottom: 16 }}
        message={
          result.ok
            ? `「${name}」作答成功，耗时 ${result.latencyMs} ms`
            : `「${name}」测试失败，耗时 ${result.latencyMs} ms`
        }
        description={result.error ?? undefined}
      />
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="示例题目">{result.question.title}</Descriptions.Item>
        {result.question.options.length > 0 && (
          <Descriptions.Item label="选项">
            {result.question.options.map((o, i) => `${String.fromCharCode(65 + i)}. ${o}`).join('　')}
          </Descriptions.Item>
        )}
        <Descriptions.Item label="耗时">{result.latencyMs} ms</Descriptions.Item>
        <Descriptions.Item label="原始回复">
          {result.raw === null ? (
            '-'
          ) : (
            <Typography.Text code style={{ whiteSpace: 'pre-wrap' }}>
              {result.raw}
            </Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="解析结果">{result.answer ?? '-'}</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
