/** Columns and search fields of the admin user table. */
import { formatTime } from '@/components/time';
import RoleTags from '@/components/RoleTags';
import { ROLE_LABELS, USER_STATUS_LABELS } from '@/components/roles';
import { avatarOf } from '@/components/user';
import { LOGIN_FREE_FAILURES, type AdminUser } from '@/contract';
import type { ProColumns } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Avatar, Button, Space, Tag, Tooltip, Typography } from 'antd';
import ActionLink from '@/components/ActionLink';

interface Actions {
  selfUid?: number;
  onDelete: (user: AdminUser) => void;
  onAudit: (user: AdminUser) => void;
}

export function userColumns({ selfUid, onDelete, onAudit }: Actions): ProColumns<AdminUser>[] {
  return [
    {
      title: '关键词',
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: '用户名或昵称' },
    },
    {
      title: '角色',
      dataIndex: 'role',
      hideInTable: true,
      valueType: 'select',
      valueEnum: { admin: { text: ROLE_LABELS.admin }, njit: { text: ROLE_LABELS.njit } },
    },
    {
      title: '用户',
      dataIndex: 'username',
      search: false,
      render: (_, u) => (
        <Space>
          <Avatar size="small" src={avatarOf(u)} alt="" />
          {/* Two lines, no brackets: a nickname may hold brackets of its own (王老师（已改）). */}
          <Space direction="vertical" size={0}>
            <span>{u.username}</span>
            {u.nickname && (
              <Typography.Text type="secondary" title="昵称">
                {u.nickname}
              </Typography.Text>
            )}
          </Space>
        </Space>
      ),
    },
    { title: '角色', dataIndex: 'roles', search: false, render: (_, u) => <RoleTags roles={u.roles} /> },
    {
      title: '状态',
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: {
        active: { text: USER_STATUS_LABELS.active, status: 'Success' },
        disabled: { text: USER_STATUS_LABELS.disabled, status: 'Error' },
      },
    },
    {
      title: '有效令牌',
      dataIndex: 'activeTokens',
      search: false,
      render: (_, u) => (
        <Space size={4} wrap>
          {u.activeTokens}
          {u.recentLoginFailures >= LOGIN_FREE_FAILURES && (
            <Tooltip title={`近 15 分钟登录失败 ${u.recentLoginFailures} 次，陌生浏览器需等待后重试；可在编辑页解除`}>
              <Tag color="warning">登录受限</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      search: false,
      sorter: true,
      defaultSortOrder: 'descend',
      render: (_, u) => formatTime(u.createdAt),
    },
    {
      title: '最后登录',
      dataIndex: 'lastLoginAt',
      search: false,
      sorter: true,
      render: (_, u) => formatTime(u.lastLoginAt, '从未登录'),
    },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      key: 'option',
      render: (_, u) => [
        <Link key="edit" to={`/user/admin/editUser?uid=${u.uid}`}>
          编辑
        </Link>,
        <ActionLink key="audit" onClick={() => onAudit(u)}>
          日志
        </ActionLink>,
        u.uid === selfUid ? (
          <Tooltip key="delete" title="不能删除自己">
            <Button type="link" size="small" danger disabled style={{ padding: 0 }}>
              删除
            </Button>
          </Tooltip>
        ) : (
          <Button key="delete" type="link" size="small" danger style={{ padding: 0 }} onClick={() => onDelete(u)}>
            删除
          </Button>
        ),
      ],
    },
  ];
}
