/** DingTalk's real answer to a test message: errcode and errmsg as sent, plus our explanation. */
import type { ChannelTestResult } from '@/contract';
import { Alert, Descriptions } from 'antd';

export default function TestResult({ channelName, result }: { channelName: string; result: ChannelTestResult }) {
  return (
    <div data-testid="test-result">
      <Alert
        type={result.ok ? 'success' : 'error'}
        showIcon
        style={{ marginBottom: 12 }}
        message={result.ok ? `「${channelName}」测试消息已送达，请查看钉钉群` : `「${channelName}」测试消息发送失败`}
        description={result.hint ?? undefined}
      />
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="errcode">{result.errcode ?? '无'}</Descriptions.Item>
        <Descriptions.Item label="errmsg">{result.errmsg || '-'}</Descriptions.Item>
        <Descriptions.Item label="HTTP 状态">{result.httpStatus ?? '无应答'}</Descriptions.Item>
        <Descriptions.Item label="耗时">{result.durationMs} ms</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
