/** How many of the user's messages are in each status, and how many are unread in the inbox. */
import { MESSAGE_STATUSES, MESSAGE_STATUS_LABELS, type MessageStatus } from '@/contract';
import { Link } from '@umijs/max';
import { Card, Grid, Statistic } from 'antd';

// Dark enough for 3:1 on white at the statistic's size (retrying was #d48806, 2.9:1).
const COLORS: Partial<Record<MessageStatus, string>> = { delivered: '#389e0d', failed: '#cf1322', retrying: '#ad6800' };
/** All seven statuses in one row on a wide screen; four and three on a narrow one, never one alone. */
const COLUMNS = { wide: MESSAGE_STATUSES.length, narrow: 4 };

interface Props {
  byStatus: Record<string, number>;
  total: number;
  unread: number;
}

export default function StatusCounts({ byStatus, total, unread }: Props) {
  const screens = Grid.useBreakpoint();
  return (
    <Card
      title="消息状态"
      extra={
        <>
          共 {total} 条，<Link to="/UMS/queryMessage">{unread} 条未读</Link>
        </>
      }
    >
      <div
        data-testid="status-grid"
        style={{
          display: 'grid',
          gridTemplateColumns: `repeat(${screens.md ? COLUMNS.wide : COLUMNS.narrow}, minmax(0, 1fr))`,
          gap: 16,
        }}
      >
        {MESSAGE_STATUSES.map((s) => (
          <Statistic
            key={s}
            title={MESSAGE_STATUS_LABELS[s]}
            value={byStatus[s] ?? 0}
            valueStyle={{ color: COLORS[s] }}
          />
        ))}
      </div>
    </Card>
  );
}
