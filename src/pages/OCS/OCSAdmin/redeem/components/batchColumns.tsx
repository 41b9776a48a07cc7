/** Columns of the batch table: what a batch is worth, how much of it is used, and its actions. */
import { formatTime } from '@/components/time';
import { REDEEM_BATCH_STATUS_LABELS, type RedeemBatch, type RedeemBatchStatus } from '@/contract';
import type { ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm, Space, Tag } from 'antd';
import DownloadButton from './DownloadButton';

const STATUS_COLORS: Record<RedeemBatchStatus, string> = {
  active: 'green',
  disabled: 'default',
  expired: 'orange',
  used_up: 'blue',
};

export function batchColumns({
  onDisable,
  reload,
}: {
  onDisable: (b: RedeemBatch) => void;
  reload: () => void;
}): ProColumns<RedeemBatch>[] {
  return [
    { title: '批次', dataIndex: 'id', width: 70, render: (_, b) => `#${b.id}` },
    { title: '备注', dataIndex: 'note', ellipsis: true, render: (_, b) => b.note || '-' },
    { title: '面值', dataIndex: 'value', width: 80 },
    { title: '兑换码数', dataIndex: 'codeCount', width: 90 },
    { title: '每码次数', dataIndex: 'maxUses', width: 90 },
    { title: '已使用', dataIndex: 'uses', width: 80 },
    { title: '剩余次数', dataIndex: 'remainingUses', width: 90 },
    { title: '可用兑换码', dataIndex: 'remainingCodes', width: 100 },
    { title: '兑换人数', dataIndex: 'redeemedBy', width: 90 },
    { title: '过期时间', dataIndex: 'expiresAt', width: 150, render: (_, b) => formatTime(b.expiresAt, '永不过期') },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (_, b) => <Tag color={STATUS_COLORS[b.status]}>{REDEEM_BATCH_STATUS_LABELS[b.status]}</Tag>,
    },
    { title: '创建时间', dataIndex: 'createdAt', width: 150, render: (_, b) => formatTime(b.createdAt) },
    {
      title: '操作',
      valueType: 'option',
      fixed: 'right',
      width: 200,
      render: (_, b) => (
        <Space size={0}>
          <DownloadButton batch={b} onDone={reload} />
          {!b.disabled && (
            <Popconfirm
              title="停用这个批次？"
              description="停用后其中的兑换码都不能再兑换，且无法恢复。"
              okText="停用"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() => onDisable(b)}
            >
              <Button type="link" size="small" danger>
                停用
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
}
