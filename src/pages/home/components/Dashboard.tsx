/**
 * The signed-in user's part of the home page, loaded only for them (a visitor's first download stays
 * as it was): their own figures, recent pages and quick actions; administrators also the portal's
 * state. Each module answers its own summary; a card whose call fails says so and offers 重试 alone.
 */
import { useAccess } from '@umijs/max';
import * as notificationsApi from '@/contract/api/notifications';
import * as ocsApi from '@/contract/api/ocs';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';
import { Col, Row, Typography } from 'antd';
import { MessagesCard, NotificationsCard, OcsCard } from './MyCards';
import { QuickActions, RecentCard } from './NavCards';
import { OutboxCard, ReviewWorkCard } from './PortalState';

/** Errors show on their card, not as a message over the page. */
const quiet = { skipErrorHandler: true };

function useSummary<T>(load: () => Promise<T>) {
  const { data, error, loading, refresh } = useRequest(load);
  return { data, error, loading, refresh };
}

export default function Dashboard({ uid }: { uid: number }) {
  const access = useAccess();
  const ocs = useSummary(() => call(ocsApi.homeSummary, {}, quiet).then((r) => r.data));
  const ums = useSummary(() => call(umsApi.homeSummary, {}, quiet).then((r) => r.data));
  const notices = useSummary(() =>
    call(notificationsApi.listNotifications, { query: { read: 'unread', current: 1, pageSize: 3 } }, quiet).then(
      (r) => ({ data: r.data, total: r.total }),
    ),
  );
  return (
    <section aria-labelledby="home-mine" style={{ marginBottom: 24 }}>
      <Typography.Title level={2} id="home-mine" style={{ fontSize: 20 }}>
        我的工作台
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12} xl={8}>
          <OcsCard state={ocs} />
        </Col>
        <Col xs={24} md={12} xl={8}>
          <MessagesCard state={ums} />
        </Col>
        <Col xs={24} md={12} xl={8}>
          <NotificationsCard state={notices} />
        </Col>
        <Col xs={24} md={12} xl={8}>
          <RecentCard uid={uid} access={access} />
        </Col>
        <Col xs={24} xl={16}>
          <QuickActions access={access} />
        </Col>
        {access.isAdmin && (
          <>
            <Col xs={24} xl={12}>
              <ReviewWorkCard state={ocs} />
            </Col>
            <Col xs={24} xl={12}>
              <OutboxCard state={ums} />
            </Col>
          </>
        )}
      </Row>
    </section>
  );
}
