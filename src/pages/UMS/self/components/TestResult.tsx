/**
 * The service's real answer to a test message: its code and message as sent (DingTalk/WeCom errcode,
 * Feishu code, the SMTP reply for e-mail), plus our explanation. When nobody answered (network, DNS,
 * TLS, timeout) the server's Chinese description stands in for the message and the technical detail
 * sits behind 详情.
 */
import type { Channel, ChannelTestResult } from '@/contract';
import { Alert, Descriptions } from 'antd';
import ErrorDetail from '../../components/ErrorDetail';
import { KIND_WHERE } from '../../components/kinds';

export default function TestResult({ channel, result }: { channel: Channel; result: ChannelTestResult }) {
  const channelName = channel.name;
  const mail = channel.kind === 'email';
  const answered = mail ? result.errcode !== null : result.httpStatus !== null;
  const codeLabel = mail ? 'SMTP 应答码' : channel.kind === 'feishu' ? 'code' : 'errcode';
  const messageLabel = !answered
    ? '错误原因'
    : mail
      ? '应答'
      : channel.kind === 'webhook'
        ? '应答内容'
        : channel.kind === 'feishu'
          ? 'msg'
          : 'errmsg';
  return (
    <div data-testid="test-result">
      <Alert
        type={result.ok ? 'success' : 'error'}
        showIcon
        style={{ marginBottom: 12 }}
        message={
          result.ok
            ? `「${channelName}」测试消息已送达，${KIND_WHERE[channel.kind]}`
            : `「${channelName}」测试消息发送失败`
        }
        description={result.hint ?? (answered || result.ok ? undefined : result.errmsg)}
      />
      <Descriptions column={1} size="small" bordered>
        {channel.kind !== 'webhook' && (
          <Descriptions.Item label={codeLabel}>{result.errcode ?? '无'}</Descriptions.Item>
        )}
        <Descriptions.Item label={messageLabel}>
          {result.errmsg || '-'}
          <ErrorDetail detail={result.detail} />
        </Descriptions.Item>
        {!mail && <Descriptions.Item label="HTTP 状态">{result.httpStatus ?? '无应答'}</Descriptions.Item>}
        <Descriptions.Item label="耗时">{result.durationMs} ms</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
