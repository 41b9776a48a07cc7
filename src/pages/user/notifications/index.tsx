/**
 * /user/notifications: the signed-in user's notification centre. Newest first, filtered by kind and by
 * read or unread; opening one marks it read and goes to the page it is about; 标为已读 one by one or
 * 全部标为已读. The header's bell counts again after each change. 通知设置 turns kinds off and on.
 */
import { NOTIFICATION_KINDS, type NotificationItem, type NotificationKind } from '@/contract';
import * as api from '@/contract/api/notifications';
import { unreadChanged } from '@/components/NotificationBell';
import { formatTime } from '@/components/time';
import { TABLE_PAGINATION } from '@/requestDefaults';
import { call } from '@/services/call';
import { CheckOutlined, SettingOutlined } from '@ant-design/icons';
import { PageContainer, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useNavigate } from '@umijs/max';
import { Badge, Button, Empty, message, Space, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTableSettings } from '@/components/tableSettings';
import NotificationSettings from './components/NotificationSettings';

type Filters = { kind?: NotificationKind; read?: 'read' | 'unread' };

const KIND_ENUM = Object.fromEntries(Object.entries(NOTIFICATION_KINDS).map(([k, text]) => [k, { text }]));

export default function NotificationsPage() {
  const tableSettings = useTableSettings('user.notifications');
  const actionRef = useRef<ActionType>();
  const navigate = useNavigate();
  const [unread, setUnread] = useState<number | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const settingsButton = useRef<HTMLButtonElement>(null);

  const afterChange = (left: number) => {
    setUnread(left);
    unreadChanged();
    actionRef.current?.reload();
  };

  const markRead = async (n: NotificationItem) => {
    try {
      const res = await call(api.markRead, { body: { ids: [n.id] } });
      afterChange(res.data.unread);
    } catch {
      // The request layer has shown the error.
    }
  };

  const open = async (n: NotificationItem) => {
    if (!n.readAt) await markRead(n);
    if (n.link) navigate(n.link);
  };

  const markAll = async () => {
    try {
      const res = await call(api.markAllRead);
      message.success(res.data.updated > 0 ? `已将 ${res.data.updated} 条通知标为已读` : '没有未读的通知');
      afterChange(res.data.unread);
    } catch {
      // The request layer has shown the error.
    }
  };

  const columns: ProColumns<NotificationItem>[] = [
    {
      title: '类型',
      dataIndex: 'kind',
      valueType: 'select',
      valueEnum: KIND_ENUM,
      width: 130,
      render: (_, n) => <Tag>{NOTIFICATION_KINDS[n.kind]}</Tag>,
    },
    {
      title: '状态',
      dataIndex: 'read',
      valueType: 'select',
      valueEnum: { unread: { text: '未读' }, read: { text: '已读' } },
      width: 80,
      render: (_, n) => (n.readAt ? <Badge status="default" text="已读" /> : <Badge status="processing" text="未读" />),
    },
    {
      title: '通知',
      dataIndex: 'title',
      search: false,
      render: (_, n) => (
        <Space direction="vertical" size={2}>
          <Typography.Text strong={!n.readAt}>{n.title}</Typography.Text>
          {n.body ? <Typography.Text type="secondary">{n.body}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: '时间', dataIndex: 'createdAt', search: false, width: 150, render: (_, n) => formatTime(n.createdAt) },
    {
      title: '操作',
      valueType: 'option',
      width: 150,
      render: (_, n) => [
        n.link ? (
          <Button key="open" type="link" size="small" onClick={() => void open(n)}>
            查看
          </Button>
        ) : null,
        !n.readAt ? (
          <Button key="read" type="link" size="small" onClick={() => void markRead(n)}>
            标为已读
          </Button>
        ) : null,
      ],
    },
  ];

  return (
    <PageContainer
      title="我的通知"
      content="推送失败、纠错反馈的处理结果、新浏览器登录等与你有关的事情会通知你；已读的通知保留一段时间后自动清理。"
    >
      <ProTable<NotificationItem, Filters>
        rowKey="id"
        headerTitle={unread === null ? '通知' : `通知（${unread} 条未读）`}
        actionRef={actionRef}
        columns={columns}
        request={async ({ current, pageSize, kind, read }) => {
          const [page, count] = await Promise.all([
            call(api.listNotifications, { query: { current, pageSize, kind, read } }),
            call(api.unreadCount),
          ]);
          setUnread(count.data.unread);
          return page;
        }}
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description="没有符合条件的通知" /> }}
        toolBarRender={() => [
          <Button key="all" icon={<CheckOutlined aria-hidden />} disabled={unread === 0} onClick={() => void markAll()}>
            全部标为已读
          </Button>,
          <Button
            key="settings"
            ref={settingsButton}
            icon={<SettingOutlined aria-hidden />}
            onClick={() => setSettingsOpen(true)}
          >
            通知设置
          </Button>,
        ]}
      />
      <NotificationSettings
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        afterClose={() => settingsButton.current?.focus()}
      />
    </PageContainer>
  );
}
