/**
 * /OCS/overview: balance and today's numbers, 30 days of queries by outcome, the latest queries, how to
 * start. Administrators also see the first-run checklist until OCS is set up; users are told when the
 * portal has nothing to answer from yet.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Button, Skeleton, Space } from 'antd';
import SetupChecklist from '../OCSAdmin/components/SetupChecklist';
import DailyChart from './components/DailyChart';
import GettingStarted from './components/GettingStarted';
import RecentQueries from './components/RecentQueries';
import ServiceNotice, { cannotAnswer } from './components/ServiceNotice';
import TodayStats from './components/TodayStats';

export default function OverviewPage() {
  const { data, error, loading, refresh } = useRequest(() => call(ocsApi.overview, {}, { skipErrorHandler: true }));
  const s = data?.data;
  const isAdmin = !!useAccess()?.isAdmin;
  return (
    <PageContainer title="OCS 概览" content="在网课页面用 OCS 脚本自动查题：题库优先，找不到时由 AI 作答，按次扣积分。">
      {isAdmin && <SetupChecklist />}
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && !s && (
          <Alert
            type="error"
            showIcon
            message={`概览加载失败：${errorMessageOf(error)}`}
            action={
              <Button size="small" loading={loading} onClick={refresh}>
                重试
              </Button>
            }
          />
        )}
        {!s && !error && <Skeleton active paragraph={{ rows: 8 }} />}
        {!isAdmin && cannotAnswer(s?.serviceReady) && <ServiceNotice />}
        {s && <TodayStats s={s} />}
        {s && <DailyChart daily={s.daily} />}
        {s && <RecentQueries recent={s.recent} />}
        {s && <GettingStarted hasToken={s.hasToken} />}
      </Space>
    </PageContainer>
  );
}
