/**
 * /UMS/self: bind, edit, test and delete DingTalk robots (secrets are write-only), pick the
 * default, and the user's own UMS statistics with the way to a ums:send token.
 */
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { Button, Card, Empty, Space } from 'antd';
import { useState } from 'react';
import { useChannels } from '../components/useChannels';
import ChannelForm from './components/ChannelForm';
import ChannelTable from './components/ChannelTable';
import MyStatsCard from './components/MyStatsCard';

export default function SelfPage() {
  const { channels, loaded, loading, refresh } = useChannels();
  const [version, setVersion] = useState(0);
  const changed = () => {
    refresh();
    setVersion((v) => v + 1);
  };
  const bindButton = (
    <ChannelForm
      onSaved={changed}
      trigger={
        <Button type="primary" icon={<PlusOutlined />}>
          绑定钉钉机器人
        </Button>
      }
    />
  );

  return (
    <PageContainer
      title="我的推送"
      content="绑定钉钉自定义机器人后，就能从网页或脚本把消息推送到钉钉。Webhook 与加签密钥加密保存，不会再显示。"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Card title="钉钉机器人" extra={channels.length > 0 && bindButton}>
          {loaded && channels.length === 0 ? (
            <Empty description="还没有绑定钉钉机器人。在钉钉群里添加一个自定义机器人，把它的 Webhook 地址填到这里。">
              {bindButton}
            </Empty>
          ) : (
            <ChannelTable channels={channels} loading={loading} onChanged={changed} />
          )}
        </Card>
        <MyStatsCard version={version} />
      </Space>
    </PageContainer>
  );
}
