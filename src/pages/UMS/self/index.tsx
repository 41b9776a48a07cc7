/**
 * /UMS/self: add, edit, test and delete push channels of every kind — DingTalk, WeCom and Feishu
 * robots, generic webhooks, e-mail (secrets are write-only) — with each channel's health, pick the
 * default, and the user's own UMS statistics with the way to a ums:send token.
 */
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { useLocation, useNavigate } from '@umijs/max';
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Button, Card, Empty, Space } from 'antd';
import { useRef, useState } from 'react';
import { addChannelRequest, SELF_PATH } from '../components/addChannel';
import { useChannels } from '../components/useChannels';
import CallbackSecretCard from './components/CallbackSecretCard';
import ChannelForm from './components/ChannelForm';
import ChannelTable from './components/ChannelTable';
import MyStatsCard from './components/MyStatsCard';

export default function SelfPage() {
  const { channels, loaded, loading, refresh } = useChannels();
  const { data: kindsAnswer } = useRequest(() => call(umsApi.channelKinds, {}, { skipErrorHandler: true }));
  const kinds = kindsAnswer?.data;
  const [version, setVersion] = useState(0);
  const changed = () => {
    refresh();
    setVersion((v) => v + 1);
  };
  // Sent here from another page to add a channel: the dialog opens at once, and once a channel is
  // added the user goes back there; closed without adding, they stay (the request leaves the address).
  const location = useLocation();
  const navigate = useNavigate();
  const [request] = useState(() => addChannelRequest(location.search));
  const leaving = useRef(false);
  const added = () => {
    changed();
    if (!request.back) return;
    leaving.current = true;
    navigate(request.back, { replace: true });
  };
  const closed = () => {
    if (!leaving.current && location.search) navigate(SELF_PATH, { replace: true });
  };
  const addButton = (
    <ChannelForm
      kinds={kinds}
      onSaved={added}
      defaultOpen={request.open}
      onClosed={closed}
      trigger={
        <Button type="primary" icon={<PlusOutlined aria-hidden />}>
          添加渠道
        </Button>
      }
    />
  );

  return (
    <PageContainer
      title="我的推送"
      content="添加钉钉、企业微信、飞书群机器人，通用 Webhook 或邮箱后，就能从网页或脚本把消息推送过去。Webhook 地址中的密钥、加签密钥和请求头加密保存，不会再显示。"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Card title="推送渠道" extra={channels.length > 0 && addButton}>
          {loaded && channels.length === 0 ? (
            <Empty description="还没有推送渠道。添加一个钉钉、企业微信或飞书群机器人，或者一个 Webhook、邮箱地址。">
              {addButton}
            </Empty>
          ) : (
            <ChannelTable channels={channels} kinds={kinds} loading={loading} onChanged={changed} />
          )}
        </Card>
        <MyStatsCard version={version} />
        <CallbackSecretCard />
      </Space>
    </PageContainer>
  );
}
