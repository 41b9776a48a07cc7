/**
 * The upstream banks in the order they are asked: enabled or not, request, price and budget, and how
 * they fare — success and answer rates, average latency, the last error, the circuit breaker.
 */
import { formatTime } from '@/components/time';
import { UPSTREAM_BREAKER_LABELS, type Upstream } from '@/contract';
import * as ocsUpstreamApi from '@/contract/api/ocsUpstream';
import { call } from '@/services/call';
import {
  Button,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
  message,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import TestModal from './TestModal';
import UpstreamDrawer from './UpstreamDrawer';

const pct = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`);
const BREAKER_COLORS = { closed: 'green', open: 'red', half_open: 'orange' } as const;

export default function UpstreamTable({
  upstreams,
  loading,
  onChanged,
}: {
  upstreams: Upstream[];
  loading: boolean;
  onChanged: () => void;
}) {
  const [testing, setTesting] = useState<Upstream | null>(null);
  const toggle = async (u: Upstream, enabled: boolean) => {
    try {
      await call(ocsUpstreamApi.updateUpstream, { params: { id: u.id }, body: { enabled } });
      message.success(enabled ? `已启用「${u.name}」` : `已停用「${u.name}」`);
      onChanged();
    } catch {
      // Shown by the request layer.
    }
  };
  const remove = async (u: Upstream) => {
    try {
      await call(ocsUpstreamApi.deleteUpstream, { params: { id: u.id } });
      message.success(`已删除「${u.name}」`);
      onChanged();
    } catch {
      // Shown by the request layer.
    }
  };

  const columns: TableColumnsType<Upstream> = [
    { title: '顺序', dataIndex: 'position', width: 60 },
    { title: '名称', dataIndex: 'name' },
    {
      title: '启用',
      dataIndex: 'enabled',
      render: (_, u) => (
        <Switch size="small" aria-label={`启用 ${u.name}`} checked={u.enabled} onChange={(v) => void toggle(u, v)} />
      ),
    },
    {
      title: '接口',
      dataIndex: 'url',
      render: (_, u) => (
        <Typography.Text code style={{ wordBreak: 'break-all' }}>
          {u.method.toUpperCase()} {u.url}
        </Typography.Text>
      ),
    },
    { title: '单价', dataIndex: 'price', render: (p: number) => `${p} 积分` },
    {
      title: '今日调用',
      key: 'budget',
      render: (_, u) => `${u.stats.budgetUsedToday} / ${u.dailyBudget ?? '不限'}`,
    },
    {
      title: '成功率',
      key: 'success',
      render: (_, u) => (
        <Tooltip
          title={`共 ${u.stats.calls} 次：答出 ${u.stats.answered}，未找到 ${u.stats.notFound}，失败 ${u.stats.failures}`}
        >
          {pct(u.stats.successRate)}
        </Tooltip>
      ),
    },
    { title: '命中率', key: 'answer', render: (_, u) => pct(u.stats.answerRate) },
    {
      title: '平均延迟',
      key: 'latency',
      render: (_, u) => (u.stats.avgLatencyMs === null ? '-' : `${u.stats.avgLatencyMs} 毫秒`),
    },
    {
      title: '最近错误',
      key: 'error',
      render: (_, u) =>
        u.stats.lastError ? (
          <Tooltip title={formatTime(u.stats.lastErrorAt)}>
            <Typography.Text type="danger">{u.stats.lastError}</Typography.Text>
          </Tooltip>
        ) : (
          '-'
        ),
    },
    {
      title: '熔断',
      key: 'breaker',
      render: (_, u) => (
        <Tooltip
          title={
            u.breaker.openUntil
              ? `连续失败 ${u.breaker.consecutiveFailures} 次，${formatTime(u.breaker.openUntil)} 后试探`
              : `连续失败 ${u.breaker.consecutiveFailures} 次时熔断阈值为 ${u.breakerThreshold}`
          }
        >
          <Tag color={BREAKER_COLORS[u.breaker.state]}>{UPSTREAM_BREAKER_LABELS[u.breaker.state]}</Tag>
        </Tooltip>
      ),
    },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      key: 'actions',
      render: (_, u) => (
        <Space size={0}>
          <UpstreamDrawer
            upstream={u}
            onSaved={onChanged}
            trigger={
              <Button type="link" size="small">
                编辑
              </Button>
            }
          />
          <Button type="link" size="small" onClick={() => setTesting(u)}>
            测试
          </Button>
          <Popconfirm
            title={`删除上游题库「${u.name}」？`}
            description="已经存入题库的答案会保留。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => remove(u)}
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Table<Upstream>
        rowKey="id"
        columns={columns}
        dataSource={upstreams}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '还没有上游题库' }}
      />
      <TestModal upstream={testing} onClose={() => setTesting(null)} />
    </>
  );
}
