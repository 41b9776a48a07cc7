/**
 * DingTalk's real answer to a test message: errcode and errmsg as sent, plus our explanation. When
 * DingTalk never answered (network, DNS, TLS, timeout) the server's Chinese description stands in
 * for errmsg and the technical detail sits behind 详情.
 */
import type { ChannelTestResult } from '@/contract';
import { Alert, Descriptions } from 'antd';
import ErrorDetail from '../../components/ErrorDetail';

export default function TestResult({ channelName, result }: { channelName: string; result: ChannelTestResult }) {
  const answered = result.httpStatus !== null;
  return (
    <div data-testid="test-result">
      <Alert
        type={result.ok ? 'success' : 'error'}
        showIcon
        style={{ marginBottom: 12 }}
        message={result.ok ? `「${channelName}」测试消息已送达，请查看钉钉群` : `「${channelName}」测试消息发送失败`}
        description={result.hint ?? (answered || result.ok ? undefined : result.errmsg)}
      />
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="errcode">{result.errcode ?? '无'}</Descriptions.Item>
        <Descriptions.Item label={answered ? 'errmsg' : '错误原因'}>
          {result.errmsg || '-'}
          <ErrorDetail detail={result.detail} />
        </Descriptions.Item>
        <Descriptions.Item label="HTTP 状态">{result.httpStatus ?? '无应答'}</Descriptions.Item>
        <Descriptions.Item label="耗时">{result.durationMs} ms</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
