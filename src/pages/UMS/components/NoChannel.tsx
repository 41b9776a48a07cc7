/**
 * What UMS pages show before the user has a channel: a way to add one. It opens /UMS/self with the add
 * dialog open, and brings the user back here once the channel is added (addChannelPath).
 */
import { useLocation, useNavigate } from '@umijs/max';
import { Link } from '@umijs/max';
import { Alert, Button, Empty } from 'antd';
import { addChannelPath } from './addChannel';

const TEXT = '还没有推送渠道，消息无处可发。';

export default function NoChannel({ variant = 'empty' }: { variant?: 'empty' | 'alert' }) {
  const location = useLocation();
  const navigate = useNavigate();
  const to = addChannelPath(location);
  if (variant === 'alert') {
    return (
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={TEXT} action={<Link to={to}>去添加</Link>} />
    );
  }
  return (
    <Empty description={TEXT} data-testid="no-channel">
      <Button type="primary" onClick={() => navigate(to)}>
        添加推送渠道
      </Button>
    </Empty>
  );
}
