/** How many of the user's messages are in each status, and how many are unread in the inbox. */
import { MESSAGE_STATUSES, MESSAGE_STATUS_LABELS, type MessageStatus } from '@/contract';
import { Link } from '@umijs/max';
import { Card, Col, Row, Statistic } from 'antd';

const COLORS: Partial<Record<MessageStatus, string>> = { delivered: '#389e0d', failed: '#cf1322', retrying: '#d48806' };

interface Props {
  byStatus: Record<string, number>;
  total: number;
  unread: number;
}

export default function StatusCounts({ byStatus, total, unread }: Props) {
  return (
    <Card
      title="消息状态"
      extra={
        <>
          共 {total} 条，<Link to="/UMS/queryMessage">{unread} 条未读</Link>
        </>
      }
    >
      <Row gutter={[16, 16]}>
        {MESSAGE_STATUSES.map((s) => (
          <Col key={s} xs={12} sm={8} md={4}>
            <Statistic title={MESSAGE_STATUS_LABELS[s]} value={byStatus[s] ?? 0} valueStyle={{ color: COLORS[s] }} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
