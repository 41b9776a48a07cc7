/**
 * The 未收录 queue, most asked first: answer one or the selected ones (prefilled with an AI draft when
 * there is one), ask the AI for a draft, or dismiss questions that should not be answered.
 */
import { formatTime } from '@/components/time';
import { OCS_MISS_STATUS_LABELS, OCS_TYPE_LABELS, type MissItem, type OcsMissStatus } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as ocsReviewApi from '@/contract/api/ocsReview';
import { call } from '@/services/call';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm, Space, Tag, Typography, message } from 'antd';
import { useRef, useState } from 'react';
import AnswerModal from './AnswerModal';
import ActionLink from '@/components/ActionLink';
import { useTableSettings } from '@/components/tableSettings';

interface Search {
  current?: number;
  pageSize?: number;
  status?: OcsMissStatus;
  keyword?: string;
}

const STATUS_ENUM = Object.fromEntries(
  Object.entries(OCS_MISS_STATUS_LABELS).map(([k, text]) => [k, { text }]),
) as Record<OcsMissStatus, { text: string }>;

export default function MissTable() {
  const tableSettings = useTableSettings('OCS.admin.misses');
  const actionRef = useRef<ActionType>();
  const [selected, setSelected] = useState<MissItem[]>([]);
  const [answering, setAnswering] = useState<MissItem[]>([]);
  const [drafting, setDrafting] = useState<number | null>(null);
  const reload = () => {
    setSelected([]);
    actionRef.current?.clearSelected?.();
    actionRef.current?.reload();
  };
  const draft = async (m: MissItem) => {
    setDrafting(m.id);
    try {
      const r = await call(ocsReviewApi.draftMiss, { params: { id: m.id } });
      message.success(`AI 草稿：${r.data.draft?.join('；') ?? '无'}（确认后才会入库）`);
      actionRef.current?.reload();
    } catch {
      // The request layer has shown why (no model, the model failed).
    } finally {
      setDrafting(null);
    }
  };
  const dismiss = async (ids: number[]) => {
    try {
      const r = await call(ocsReviewApi.dismissMisses, { body: { ids } });
      message.success(`已忽略 ${r.data.dismissed} 道题`);
      reload();
    } catch {
      // Shown by the request layer.
    }
  };

  const columns: ProColumns<MissItem>[] = [
    { title: '关键字', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '题目关键字' } },
    {
      title: '状态',
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: STATUS_ENUM,
      initialValue: 'open',
      fieldProps: { allowClear: false },
      hideInTable: true,
    },
    { title: '题目', dataIndex: 'title', search: false, width: 300, ellipsis: true },
    { title: '题型', dataIndex: 'type', search: false, render: (_, m) => OCS_TYPE_LABELS[m.type] },
    {
      title: '选项',
      dataIndex: 'options',
      search: false,
      ellipsis: true,
      width: 200,
      render: (_, m) => m.options.join(' / ') || '-',
    },
    { title: '被问次数', dataIndex: 'count', search: false },
    { title: '最近一次', dataIndex: 'lastAt', search: false, render: (_, m) => formatTime(m.lastAt) },
    {
      title: 'AI 草稿',
      dataIndex: 'draft',
      search: false,
      render: (_, m) =>
        m.draft ? (
          <Space size={4}>
            <Typography.Text>{m.draft.join('；')}</Typography.Text>
            <Tag color="purple">{m.draftModel}</Tag>
          </Space>
        ) : (
          '-'
        ),
    },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      render: (_, m) =>
        m.status !== 'open'
          ? [<span key="done">{m.questionId ? `已入库 #${m.questionId}` : '-'}</span>]
          : [
              <ActionLink key="answer" onClick={() => setAnswering([m])}>
                补录
              </ActionLink>,
              <ActionLink key="draft" onClick={() => void draft(m)} disabled={drafting === m.id}>
                {drafting === m.id ? 'AI 起草中…' : 'AI 起草'}
              </ActionLink>,
              <Popconfirm
                key="dismiss"
                title="忽略这道题？"
                description="不再出现在待补录列表；再被问到时只累计次数。"
                okText="忽略"
                cancelText="取消"
                onConfirm={() => dismiss([m.id])}
              >
                <ActionLink>忽略</ActionLink>
              </Popconfirm>,
            ],
    },
  ];

  return (
    <>
      <ProTable<MissItem, Search>
        rowKey="id"
        headerTitle="未收录题目（被问得最多的在前）"
        actionRef={actionRef}
        columns={columns}
        request={({ current, pageSize, status, keyword }) =>
          call(ocsReviewApi.listMisses, {
            query: {
              current,
              pageSize,
              status: status ?? 'open',
              ...(keyword?.trim() ? { keyword: keyword.trim() } : {}),
            },
          })
        }
        rowSelection={{
          onChange: (_, rows) => setSelected(rows),
          // Named in Chinese: antd names the header's box "Select all" whatever the locale.
          getTitleCheckboxProps: () => ({ 'aria-label': '全选本页' }),
          getCheckboxProps: (m) => ({ disabled: m.status !== 'open', 'aria-label': `选择「${m.title}」` }),
        }}
        tableAlertOptionRender={() => (
          <Space wrap>
            <Button size="small" type="primary" onClick={() => setAnswering(selected)}>
              批量补录
            </Button>
            <Popconfirm
              title={`忽略所选 ${selected.length} 道题？`}
              okText="忽略"
              cancelText="取消"
              onConfirm={() => dismiss(selected.map((m) => m.id))}
            >
              <Button size="small">批量忽略</Button>
            </Popconfirm>
          </Space>
        )}
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有未收录的题目' }}
      />
      <AnswerModal items={answering} onClose={() => setAnswering([])} onDone={reload} />
    </>
  );
}
