/** What UMS pages show before the user has a channel: a way to /UMS/self. */
import { Link } from '@umijs/max';
import { Alert, Button, Empty } from 'antd';

const TEXT = '还没有推送渠道，消息无处可发。';

export default function NoChannel({ variant = 'empty' }: { variant?: 'empty' | 'alert' }) {
  if (variant === 'alert') {
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={TEXT}
        action={<Link to="/UMS/self">去添加</Link>}
      />
    );
  }
  return (
    <Empty description={TEXT} data-testid="no-channel">
      <Link to="/UMS/self">
        <Button type="primary">添加推送渠道</Button>
      </Link>
    </Empty>
  );
}
