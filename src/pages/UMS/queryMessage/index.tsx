/**
 * /UMS/queryMessage: the user's inbox — every message, delivered or not, with read/unread state — (page
 * size 10) filtered by status, read state, channel, creation date and a keyword; `?id=` opens that
 * message's detail drawer (createMessage lands here), which marks it read.
 */
import type { MessageStatus, MessageSummary } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer, ProTable, type ActionType } from '@ant-design/pro-components';
import { Link, useLocation, useNavigate } from '@umijs/max';
import { Button, Empty, message } from 'antd';
import { useRef } from 'react';
import MessageDetailDrawer from '../components/MessageDetailDrawer';
import NoChannel from '../components/NoChannel';
import { useChannels } from '../components/useChannels';
import { messageColumns } from './columns';
import { useTableSettings } from '@/components/tableSettings';

interface Query {
  keyword?: string;
  status?: MessageStatus;
  read?: 'read' | 'unread';
  channel?: number;
  from?: string;
  to?: string;
}

/** The message id in `?id=`, if it is a positive integer. */
export function idFromSearch(search: string): number | undefined {
  const id = Number(new URLSearchParams(search).get('id'));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

export default function QueryMessagePage() {
  const tableSettings = useTableSettings('UMS.messages');
  const actionRef = useRef<ActionType>();
  const location = useLocation();
  const navigate = useNavigate();
  const { channels, loaded } = useChannels();
  const openId = idFromSearch(location.search);

  const open = (id: number) => navigate(`${location.pathname}?id=${id}`);
  const close = () => navigate(location.pathname, { replace: true });
  const reload = () => actionRef.current?.reload();
  const readAll = async () => {
    try {
      const res = await call(umsApi.markAllRead);
      message.success(res.data.updated ? `已将 ${res.data.updated} 条消息标为已读` : '没有未读消息');
      reload();
    } catch {
      // The request layer has shown the error.
    }
  };

  return (
    <PageContainer title="消息查询" content="每条消息的状态与每一次投递记录。点击标题查看详情。">
      {loaded && channels.length === 0 && <NoChannel variant="alert" />}
      <ProTable<MessageSummary, Query>
        rowKey="id"
        headerTitle="我的消息"
        actionRef={actionRef}
        columns={messageColumns({ channels, onOpen: open, onChanged: reload })}
        request={({ current, pageSize, keyword, status, read, channel, from, to }) =>
          call(umsApi.listMessages, {
            query: { current, pageSize, keyword: keyword?.trim() || undefined, status, read, channel, from, to },
          })
        }
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: (
            <Empty description="没有符合条件的消息">
              <Link to="/UMS/createMessage">写一条消息</Link>
            </Empty>
          ),
        }}
        toolBarRender={() => [
          <Button key="read-all" onClick={readAll}>
            全部标为已读
          </Button>,
          <Link key="new" to="/UMS/createMessage">
            <Button type="primary" icon={<PlusOutlined aria-hidden />}>
              创建消息
            </Button>
          </Link>,
        ]}
      />
      <MessageDetailDrawer id={openId} onClose={close} onChanged={reload} channels={channels} />
    </PageContainer>
  );
}
