/** Personal UMS info: how many messages, how they ended, and the way to a ums:send token. */
import { MESSAGE_STATUS_LABELS } from '@/contract';
import { KeyOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';
import { Button, Card, Col, Row, Space, Statistic, Typography } from 'antd';

export default function MyStatsCard({ version }: { version: number }) {
  const { data, loading } = useRequest(() => call(umsApi.stats), { refreshDeps: [version] });
  const s = data?.data;
  const count = (k: string) => s?.byStatus[k] ?? 0;
  const pending = count('queued') + count('sending') + count('retrying');
  return (
    <Card title="我的统计" loading={loading && !s}>
      <Row gutter={16}>
        <Col span={6}>
          <Statistic title="全部消息" value={s?.total ?? 0} />
        </Col>
        <Col span={6}>
          <Statistic
            title={MESSAGE_STATUS_LABELS.delivered}
            value={count('delivered')}
            valueStyle={{ color: '#389e0d' }}
          />
        </Col>
        <Col span={6}>
          <Statistic title={MESSAGE_STATUS_LABELS.failed} value={count('failed')} valueStyle={{ color: '#cf1322' }} />
        </Col>
        <Col span={6}>
          <Statistic title="待发送" value={pending} />
        </Col>
      </Row>
      <Space direction="vertical" style={{ marginTop: 16 }}>
        <Typography.Text type="secondary">
          脚本通过 /api/ums/send 推送消息时，需要一个权限范围为 ums:send 的个人令牌。
        </Typography.Text>
        <Space wrap>
          <Link to="/user/tokenGen?scope=ums:send">
            <Button icon={<KeyOutlined aria-hidden />}>生成 ums:send 令牌</Button>
          </Link>
          <Link to="/user/tokenManage">管理令牌</Link>
          <Link to="/UMS/overview">接口示例</Link>
        </Space>
      </Space>
    </Card>
  );
}
