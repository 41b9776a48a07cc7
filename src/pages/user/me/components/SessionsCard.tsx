/** Active sessions: end any but the current one, or all others at once (each confirmed first). */
import { formatTime } from '@/components/time';
import type { SessionInfo } from '@/contract';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import ScrollTable from '@/components/ScrollTable';
import { Button, Card, Popconfirm, Tag, Tooltip, message, type TableColumnsType } from 'antd';
import { useRequest } from 'ahooks';
import { describeUserAgent } from './userAgent';

export default function SessionsCard({ version }: { version: number }) {
  const { data, loading, refresh } = useRequest(() => call(userApi.listSessions), { refreshDeps: [version] });
  const sessions = data?.data ?? [];
  const others = sessions.filter((s) => !s.current).length;

  const end = async (id: number) => {
    try {
      await call(userApi.endSession, { params: { id } });
      message.success('会话已结束');
    } catch {
      // The request layer has shown the error.
    }
    refresh();
  };
  const endOthers = async () => {
    try {
      const res = await call(userApi.endOtherSessions);
      message.success(`已退出其他 ${res.data.ended} 个会话`);
    } catch {
      // The request layer has shown the error.
    }
    refresh();
  };

  const columns: TableColumnsType<SessionInfo> = [
    {
      title: '设备',
      dataIndex: 'userAgent',
      render: (_, s) => (
        <Tooltip title={s.userAgent ?? undefined}>
          {describeUserAgent(s.userAgent)}
          {s.current && (
            <Tag color="green" style={{ marginLeft: 8 }}>
              当前会话
            </Tag>
          )}
        </Tooltip>
      ),
    },
    { title: 'IP', dataIndex: 'ip', render: (ip) => ip ?? '-' },
    { title: '登录时间', dataIndex: 'createdAt', render: (t) => formatTime(t) },
    { title: '最近活动', dataIndex: 'lastSeenAt', render: (t) => formatTime(t) },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      key: 'action',
      render: (_, s) =>
        s.current ? null : (
          <Popconfirm
            title="结束该会话？"
            description="该设备会立即退出登录。"
            okText="结束"
            cancelText="取消"
            onConfirm={() => end(s.id)}
          >
            <Button type="link" danger size="small">
              结束会话
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      title="登录会话"
      extra={
        <Popconfirm
          title="退出其他所有会话？"
          description="除当前设备外，所有设备都会立即退出登录。"
          okText="全部退出"
          cancelText="取消"
          onConfirm={endOthers}
          disabled={others === 0}
        >
          <Button danger disabled={others === 0}>
            退出其他所有会话
          </Button>
        </Popconfirm>
      }
    >
      <ScrollTable<SessionInfo>
        label="登录会话列表"
        rowKey="id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={sessions}
        pagination={false}
        locale={{ emptyText: '没有活动的会话' }}
      />
    </Card>
  );
}
