/** What UMS pages show before the user has bound a DingTalk robot: a way to /UMS/self. */
import { Link } from '@umijs/max';
import { Alert, Button, Empty } from 'antd';

const TEXT = '还没有绑定钉钉机器人，消息无处可发。';

export default function NoChannel({ variant = 'empty' }: { variant?: 'empty' | 'alert' }) {
  if (variant === 'alert') {
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={TEXT}
        action={<Link to="/UMS/self">去绑定</Link>}
      />
    );
  }
  return (
    <Empty description={TEXT} data-testid="no-channel">
      <Link to="/UMS/self">
        <Button type="primary">绑定钉钉机器人</Button>
      </Link>
    </Empty>
  );
}
