/** Columns and search fields of the message list. */
import { formatTime } from '@/components/time';
import { PRIORITY_LABELS, type Channel, type MessageSummary } from '@/contract';
import type { ProColumns } from '@ant-design/pro-components';
import { Button, Tag, Typography } from 'antd';
import { dayEnd, dayStart } from '../components/days';
import MessageActions from '../components/MessageActions';
import { STATUS_VALUE_ENUM } from '../components/status';
import ActionLink from '@/components/ActionLink';

interface Options {
  channels: Channel[];
  onOpen: (id: number) => void;
  onChanged: () => void;
}

export function messageColumns({ channels, onOpen, onChanged }: Options): ProColumns<MessageSummary>[] {
  return [
    { title: '编号', dataIndex: 'id', search: false, width: 72 },
    {
      title: '标题',
      dataIndex: 'title',
      search: false,
      ellipsis: true,
      render: (_, m) => (
        <>
          {!m.readAt && (
            <Tag color="blue" data-testid="unread">
              未读
            </Tag>
          )}
          {(m.priority === 'urgent' || m.priority === 'high') && (
            <Tag color={m.priority === 'urgent' ? 'red' : 'orange'}>{PRIORITY_LABELS[m.priority]}</Tag>
          )}
          {/* A title wraps like text; unread ones are bold. */}
          <ActionLink
            onClick={() => onOpen(m.id)}
            style={{ height: 'auto', whiteSpace: 'normal', textAlign: 'start', fontWeight: m.readAt ? undefined : 600 }}
          >
            {m.title || m.content.slice(0, 30) || '（无标题）'}
          </ActionLink>
        </>
      ),
    },
    {
      title: '关键词',
      dataIndex: 'keyword',
      hideInTable: true,
      fieldProps: { placeholder: '搜索标题和内容' },
    },
    {
      title: '渠道',
      dataIndex: 'channel',
      valueType: 'select',
      fieldProps: { options: channels.map((c) => ({ value: c.id, label: c.name })) },
      render: (_, m) => m.channelName ?? <Typography.Text type="secondary">（已删除）</Typography.Text>,
    },
    { title: '状态', dataIndex: 'status', valueType: 'select', valueEnum: STATUS_VALUE_ENUM },
    {
      title: '阅读',
      dataIndex: 'read',
      valueType: 'select',
      hideInTable: true,
      valueEnum: { unread: { text: '未读' }, read: { text: '已读' } },
    },
    { title: '尝试', dataIndex: 'attempts', search: false, width: 64 },
    { title: '创建时间', dataIndex: 'createdAt', search: false, render: (_, m) => formatTime(m.createdAt) },
    {
      title: '创建日期',
      dataIndex: 'createdRange',
      valueType: 'dateRange',
      hideInTable: true,
      search: {
        transform: (value: [string, string]) => ({ from: dayStart(value[0]), to: dayEnd(value[1]) }),
      },
    },
    {
      title: '定时发送',
      dataIndex: 'sendAt',
      search: false,
      render: (_, m) => formatTime(m.sendAt),
    },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      key: 'option',
      render: (_, m) => [
        <Button key="detail" type="link" size="small" onClick={() => onOpen(m.id)}>
          详情
        </Button>,
        <MessageActions key="actions" id={m.id} status={m.status} onDone={onChanged} />,
      ],
    },
  ];
}
