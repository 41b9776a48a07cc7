/** Copy-paste curl commands for /api/ums/send against this portal, and the limits a script meets. */
import { CheckOutlined, CopyOutlined, KeyOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { curlExamples } from './curl';

function Command({ title, command }: { title: string; command: string }) {
  return (
    <div>
      <Typography.Text strong>{title}</Typography.Text>
      <Typography.Paragraph
        data-testid="curl"
        copyable={{
          text: command,
          tooltips: ['复制', '已复制'],
          icon: [
            <span key="copy">
              <CopyOutlined aria-hidden /> 复制
            </span>,
            <span key="copied">
              <CheckOutlined aria-hidden /> 已复制
            </span>,
          ],
        }}
        style={{
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          fontFamily: 'monospace',
          background: 'rgba(0,0,0,0.03)',
          padding: 12,
          borderRadius: 6,
        }}
      >
        {command}
      </Typography.Paragraph>
    </div>
  );
}

export default function QuickStart({ origin }: { origin: string }) {
  return (
    <Card
      title="快速开始：用 curl 推送"
      extra={
        <Link to="/user/tokenGen?scope=ums:send">
          <Button icon={<KeyOutlined aria-hidden />}>生成 ums:send 令牌</Button>
        </Link>
      }
    >
      <Typography.Paragraph type="secondary">
        把下面命令里的 <Typography.Text code>pt_xxx</Typography.Text> 换成你的令牌（权限范围 ums:send）。 接口立即返回{' '}
        <Typography.Text code>{'{"success":true,"data":{"id":42,"status":"queued"}}'}</Typography.Text>，
        消息随后由后台投递；type 可选 markdown（默认）或 text，channel 可指定渠道编号（默认渠道可省略）。
      </Typography.Paragraph>
      {curlExamples(origin).map((e) => (
        <Command key={e.title} {...e} />
      ))}
      <Alert
        type="info"
        showIcon
        message="频率限制"
        description={
          <Space direction="vertical" size={0}>
            <span>
              每个令牌每分钟最多调用 60 次，20 秒内最多 20 次；超出时返回 HTTP 429，请按响应头 Retry-After
              给出的秒数等待后重试。
            </span>
            <span>
              每个钉钉或企业微信机器人每分钟最多发送 20 条，飞书机器人 100 条（每秒 5 条），每个邮箱地址 10
              条；多出的消息会排队稍后发出，被对方限流时该渠道暂停一会儿，消息不会丢失。
            </span>
          </Space>
        }
      />
    </Card>
  );
}
