/** /UMS/dingtalk/sendSelf: a quick "send to my DingTalk" box with the last 5 sends below it. */
import { PageContainer } from '@ant-design/pro-components';
import { Card, Space } from 'antd';
import { useState } from 'react';
import ChannelsGate from '../../components/ChannelsGate';
import { useChannels } from '../../components/useChannels';
import QuickSendForm from './components/QuickSendForm';
import RecentSends from './components/RecentSends';

export default function SendSelfPage() {
  const channels = useChannels();
  const [version, setVersion] = useState(0);
  return (
    <PageContainer
      title="发送给自己"
      content="写一句话，立刻推送到你绑定的钉钉机器人。需要 Markdown 或定时发送，请用“创建消息”。"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Card>
          <ChannelsGate state={channels}>
            {(channel) => <QuickSendForm channel={channel} onSent={() => setVersion((v) => v + 1)} />}
          </ChannelsGate>
        </Card>
        <RecentSends version={version} />
      </Space>
    </PageContainer>
  );
}
