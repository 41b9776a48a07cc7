/** The signed-in user's own figures: OCS wallet and today, UMS inbox, notifications. */
import type * as notificationsApi from '@/contract/api/notifications';
import type * as ocsApi from '@/contract/api/ocs';
import type * as umsApi from '@/contract/api/ums';
import type { AnswerOf } from '@/contract/endpoint';
import { MESSAGE_STATUS_LABELS } from '@/contract/ums';
import { formatTime } from '@/components/time';
import { Link } from '@umijs/max';
import { Badge, Col, Empty, List, Row, Statistic, Tag, Typography } from 'antd';
import { SummaryCard, type Loaded } from './SummaryCard';

type OcsSummary = AnswerOf<typeof ocsApi.homeSummary>['data'];
type UmsSummary = AnswerOf<typeof umsApi.homeSummary>['data'];
type NotificationPage = Pick<AnswerOf<typeof notificationsApi.listNotifications>, 'data' | 'total'>;

export function OcsCard({ state }: { state: Loaded<OcsSummary> }) {
  return (
    <SummaryCard title="我的 OCS" more={{ to: '/OCS/bill', label: '账单' }} state={state}>
      {(s) => (
        <Row gutter={16}>
          <Col span={12}>
            <Statistic title="积分余额" value={s.balance} suffix="分" />
          </Col>
          <Col span={12}>
            <Statistic title="今日查询" value={s.todayQueries} suffix="次" />
          </Col>
        </Row>
      )}
    </SummaryCard>
  );
}

export function MessagesCard({ state }: { state: Loaded<UmsSummary> }) {
  return (
    <SummaryCard title="我的消息" more={{ to: '/UMS/queryMessage', label: '消息查询' }} state={state}>
      {(s) => (
        <>
          <Row gutter={16}>
            <Col span={12}>
              <Statistic title="未读" value={s.unread} suffix="条" />
            </Col>
            <Col span={12}>
              <Statistic title="发送失败" value={s.failed} suffix="条" />
            </Col>
          </Row>
          {s.latest.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有消息" />
          ) : (
            <List
              size="small"
              dataSource={s.latest}
              renderItem={(m) => (
                <List.Item extra={<Tag>{MESSAGE_STATUS_LABELS[m.status]}</Tag>}>
                  <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
                    {!m.read && <Badge status="processing" aria-label="未读" style={{ marginRight: 6 }} />}
                    {m.title || '（无标题）'}
                  </Typography.Text>
                  <div>
                    <Typography.Text type="secondary">{formatTime(m.createdAt)}</Typography.Text>
                  </div>
                </List.Item>
              )}
            />
          )}
        </>
      )}
    </SummaryCard>
  );
}

export function NotificationsCard({ state }: { state: Loaded<NotificationPage> }) {
  return (
    <SummaryCard title="未读通知" more={{ to: '/user/notifications', label: '全部通知' }} state={state}>
      {(s) => (
        <>
          <Statistic title="未读" value={s.total} suffix="条" />
          {s.data.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有未读通知" />
          ) : (
            <List
              size="small"
              dataSource={s.data}
              renderItem={(n) => (
                <List.Item>
                  <div style={{ minWidth: 0 }}>
                    {n.link ? <Link to={n.link}>{n.title}</Link> : <Typography.Text>{n.title}</Typography.Text>}
                    <div>
                      <Typography.Text type="secondary">{formatTime(n.createdAt)}</Typography.Text>
                    </div>
                  </div>
                </List.Item>
              )}
            />
          )}
        </>
      )}
    </SummaryCard>
  );
}
