/** Search the bank (title keyword, type, source, status), sort by hits or update, edit, verify, mark wrong, delete. */
import { formatTime } from '@/components/time';
import {
  bankSourceLabel,
  type BankQuestion,
  type BankQuestionListQuery,
  type BankSource,
  type BankStatus,
  type BankType,
} from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { urlOf } from '@/services/url';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, message, Popconfirm, Space, Tag } from 'antd';
import { useLocation } from '@umijs/max';
import { useEffect, useRef, useState } from 'react';
import { SOURCE_ENUM, STATUS_ENUM, TYPE_ENUM } from './labels';
import QuestionEditDrawer from './QuestionEditDrawer';
import ActionLink from '@/components/ActionLink';
import { useTableSettings } from '@/components/tableSettings';

interface Search {
  current?: number;
  pageSize?: number;
  keyword?: string;
  type?: BankType;
  source?: BankSource;
  status?: BankStatus;
}
type SortState = Record<string, 'ascend' | 'descend' | null | undefined>;

export function toQuery(p: Search, sort: SortState): BankQuestionListQuery {
  const sorted = Object.entries(sort).find(([k, v]) => v && (k === 'hitCount' || k === 'updatedAt'));
  const keyword = p.keyword?.trim();
  return {
    current: p.current ?? 1,
    pageSize: p.pageSize ?? 10,
    ...(keyword ? { keyword } : {}),
    ...(p.type ? { type: p.type } : {}),
    ...(p.source ? { source: p.source } : {}),
    ...(p.status ? { status: p.status } : {}),
    sortBy: sorted?.[0] === 'hitCount' ? 'hits' : 'updated',
    order: sorted?.[1] === 'ascend' ? 'ascend' : 'descend',
  };
}

export default function QuestionTable({ reloadKey, onChanged }: { reloadKey: number; onChanged: () => void }) {
  const tableSettings = useTableSettings('OCS.admin.bank');
  const actionRef = useRef<ActionType>();
  const [editing, setEditing] = useState<BankQuestion | null>(null);
  // A question picked in the header's search (?question=id) opens in the editor.
  const { search } = useLocation();
  useEffect(() => {
    const id = Number(new URLSearchParams(search).get('question'));
    if (!Number.isInteger(id) || id <= 0) return;
    let live = true;
    call(ocsAdminApi.getQuestion, { params: { id } })
      .then((res) => live && setEditing(res.data))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [search]);
  const changed = () => {
    actionRef.current?.reload();
    onChanged();
  };
  const mark = async (q: BankQuestion, status: BankStatus) => {
    await call(ocsAdminApi.setQuestionStatus, { params: { id: q.id }, body: { status } });
    message.success(status === 'wrong' ? '已标为错误，该题不再参与匹配' : '已标为核实');
    changed();
  };

  const columns: ProColumns<BankQuestion>[] = [
    { title: '题目', dataIndex: 'keyword', hideInTable: true, fieldProps: { placeholder: '题目关键字' } },
    { title: '题目', dataIndex: 'title', search: false, width: 320, ellipsis: true },
    { title: '题型', dataIndex: 'type', valueType: 'select', valueEnum: TYPE_ENUM },
    {
      title: '选项',
      dataIndex: 'options',
      search: false,
      ellipsis: true,
      render: (_, q) => q.options.join(' / ') || '-',
    },
    { title: '答案', dataIndex: 'answer', search: false, ellipsis: true, render: (_, q) => q.answer.join('；') },
    {
      title: '来源',
      dataIndex: 'source',
      valueType: 'select',
      valueEnum: SOURCE_ENUM,
      render: (_, q) => bankSourceLabel(q.source),
    },
    {
      title: '状态',
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: STATUS_ENUM,
      render: (dom, q) => (
        <Space size={4}>
          {dom}
          {q.disputed && <Tag color="orange">存疑</Tag>}
        </Space>
      ),
    },
    { title: '命中', dataIndex: 'hitCount', search: false, sorter: true },
    {
      title: '更新时间',
      dataIndex: 'updatedAt',
      search: false,
      sorter: true,
      render: (_, q) => formatTime(q.updatedAt),
    },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      render: (_, q) => [
        <ActionLink key="edit" onClick={() => setEditing(q)}>
          编辑
        </ActionLink>,
        q.status !== 'verified' && (
          <ActionLink key="verify" onClick={() => void mark(q, 'verified')}>
            核实
          </ActionLink>
        ),
        q.status !== 'wrong' && (
          <ActionLink key="wrong" onClick={() => void mark(q, 'wrong')}>
            标为错误
          </ActionLink>
        ),
        <Popconfirm
          key="delete"
          title="删除这道题？"
          description="删除后无法恢复；若只是答案有误，可“标为错误”。"
          okText="删除"
          okButtonProps={{ danger: true }}
          cancelText="取消"
          onConfirm={async () => {
            await call(ocsAdminApi.deleteQuestion, { params: { id: q.id } });
            message.success('已删除');
            changed();
          }}
        >
          <ActionLink>删除</ActionLink>
        </Popconfirm>,
      ],
    },
  ];

  return (
    <>
      <ProTable<BankQuestion, Search>
        key={reloadKey}
        rowKey="id"
        headerTitle="题目"
        actionRef={actionRef}
        columns={columns}
        request={(params, sort) => call(ocsAdminApi.listQuestions, { query: toQuery(params, sort) })}
        pagination={TABLE_PAGINATION}
        search={{ labelWidth: 'auto' }}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有符合条件的题目' }}
        toolBarRender={() => [
          <Button
            key="json"
            icon={<DownloadOutlined aria-hidden />}
            href={urlOf(ocsAdminApi.bankExport, { query: { format: 'json' } })}
            download
          >
            导出 JSON
          </Button>,
          <Button
            key="csv"
            icon={<DownloadOutlined aria-hidden />}
            href={urlOf(ocsAdminApi.bankExport, { query: { format: 'csv' } })}
            download
          >
            导出 CSV
          </Button>,
        ]}
      />
      <QuestionEditDrawer question={editing} onClose={() => setEditing(null)} onSaved={changed} />
    </>
  );
}
