/** Administrators: the portal's state, each figure leading to the page where it is dealt with. */
import type * as ocsApi from '@/contract/api/ocs';
import type * as umsApi from '@/contract/api/ums';
import type { AnswerOf } from '@/contract/endpoint';
import { Link } from '@umijs/max';
import { Col, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { SummaryCard, type Loaded } from './SummaryCard';

type OcsSummary = AnswerOf<typeof ocsApi.homeSummary>['data'];
type UmsSummary = AnswerOf<typeof umsApi.homeSummary>['data'];

/** A figure; red when it asks for attention (anything failed). */
function Figure({ title, value, alarm, to }: { title: string; value: number; alarm?: boolean; to?: string }) {
  const figure: ReactNode = (
    <Statistic title={title} value={value} valueStyle={alarm && value > 0 ? { color: '#cf1322' } : undefined} />
  );
  return (
    <Col xs={12} sm={6}>
      {to ? (
        <Link to={to} aria-label={`${title}：${value}`}>
          {figure}
        </Link>
      ) : (
        figure
      )}
    </Col>
  );
}

export function OutboxCard({ state }: { state: Loaded<UmsSummary> }) {
  return (
    <SummaryCard title="消息投递（全站）" state={state}>
      {(s) =>
        s.admin && (
          <Row gutter={[16, 16]}>
            <Figure title="发件箱待发送" value={s.admin.waiting} />
            <Figure title="等待重试" value={s.admin.retrying} alarm />
            <Figure title="24 小时内发送失败" value={s.admin.failedLastDay} alarm />
          </Row>
        )
      }
    </SummaryCard>
  );
}

export function ReviewWorkCard({ state }: { state: Loaded<OcsSummary> }) {
  return (
    <SummaryCard title="OCS 待处理（全站）" state={state}>
      {(s) =>
        s.admin && (
          <Row gutter={[16, 16]}>
            <Figure title="待审核纠错" value={s.admin.reviewsWaiting} to="/OCS/OCSAdmin/reviews" />
            <Figure title="未收录题目" value={s.admin.missesOpen} to="/OCS/OCSAdmin/misses" />
            <Figure title="导入进行中" value={s.admin.importsRunning} to="/OCS/OCSAdmin/bank" />
            <Figure title="导入失败" value={s.admin.importsFailed} alarm to="/OCS/OCSAdmin/bank" />
          </Row>
        )
      }
    </SummaryCard>
  );
}
