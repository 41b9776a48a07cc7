/** /UMS/createMessage: write a message; once queued, go to its detail in /UMS/queryMessage. */
import { PageContainer } from '@ant-design/pro-components';
import { useNavigate } from '@umijs/max';
import { Card, message } from 'antd';
import ChannelsGate from '../components/ChannelsGate';
import { useChannels } from '../components/useChannels';
import MessageForm from './components/MessageForm';

export default function CreateMessagePage() {
  const navigate = useNavigate();
  const channels = useChannels();

  const onCreated = (id: number) => {
    message.success('消息已加入发送队列');
    navigate(`/UMS/queryMessage?id=${id}`);
  };

  return (
    <PageContainer title="创建消息" content="消息先写入发件箱，再由后台逐条投递到所选渠道；每次投递都有记录。">
      <Card>
        <ChannelsGate state={channels}>
          {(defaultChannel) => (
            <MessageForm channels={channels.channels} defaultChannel={defaultChannel} onCreated={onCreated} />
          )}
        </ChannelsGate>
      </Card>
    </PageContainer>
  );
}
