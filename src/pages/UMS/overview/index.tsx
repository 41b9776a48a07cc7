/** /UMS/overview: counts by status, 14 days of delivered vs failed, channel health, curl quick start. */
import { errorMessageOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Button, Skeleton, Space } from 'antd';
import NoChannel from '../components/NoChannel';
import ChannelHealth from './components/ChannelHealth';
import DailyChart from './components/DailyChart';
import QuickStart from './components/QuickStart';
import StatusCounts from './components/StatusCounts';

export default function OverviewPage() {
  const { data, error, loading, refresh } = useRequest(() => call(umsApi.stats, {}, { skipErrorHandler: true }));
  const s = data?.data;
  return (
    <PageContainer
      title="UMS 概览"
      content="把消息从网页或脚本推送到钉钉、企业微信、飞书、Webhook 或邮箱，每条消息都有完整的投递记录。"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && !s && (
          <Alert
            type="error"
            showIcon
            message={`统计加载失败：${errorMessageOf(error)}`}
            action={
              <Button size="small" loading={loading} onClick={refresh}>
                重试
              </Button>
            }
          />
        )}
        {!s && !error && <Skeleton active />}
        {s && s.channels.length === 0 && <NoChannel variant="alert" />}
        {s && <StatusCounts byStatus={s.byStatus} total={s.total} unread={s.unread} />}
        {s && <DailyChart daily={s.daily} />}
        {s && s.channels.length > 0 && <ChannelHealth channels={s.channels} />}
        <QuickStart origin={window.location.origin} />
      </Space>
    </PageContainer>
  );
}
