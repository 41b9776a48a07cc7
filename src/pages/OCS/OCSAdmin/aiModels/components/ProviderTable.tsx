/** The providers: endpoint, masked key, how many models, and edit/delete. */
import { formatTime } from '@/components/time';
import type { AiProvider } from '@/contract';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { Button, Popconfirm, Space, Table, Typography, message, type TableColumnsType } from 'antd';
import ProviderDrawer from './ProviderDrawer';

interface Props {
  providers: AiProvider[];
  loading: boolean;
  onChanged: () => void;
}

export default function ProviderTable({ providers, loading, onChanged }: Props) {
  const remove = async (p: AiProvider) => {
    try {
      await call(ocsAiApi.deleteProvider, { params: { id: p.id } });
      message.success(`服务商「${p.name}」已删除`);
      onChanged();
    } catch {
      // The request layer has shown the error.
    }
  };

  const columns: TableColumnsType<AiProvider> = [
    { title: '名称', dataIndex: 'name' },
    {
      title: '接口地址',
      dataIndex: 'baseURL',
      render: (u) => (
        <Typography.Text code style={{ wordBreak: 'break-all' }}>
          {u}
        </Typography.Text>
      ),
    },
    { title: 'API 密钥', dataIndex: 'apiKeyMasked', render: (k) => <Typography.Text code>{k}</Typography.Text> },
    { title: '模型数', dataIndex: 'modelCount' },
    { title: '更新时间', dataIndex: 'updatedAt', render: (t) => formatTime(t) },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      key: 'actions',
      render: (_, p) => (
        <Space size={0}>
          <ProviderDrawer
            provider={p}
            onSaved={onChanged}
            trigger={
              <Button type="link" size="small">
                编辑
              </Button>
            }
          />
          <Popconfirm
            title={`删除服务商「${p.name}」？`}
            description={
              p.modelCount > 0
                ? `它的 ${p.modelCount} 个模型会一起删除，选了这些模型的用户将改用最便宜的可用模型。`
                : '删除后不可恢复。'
            }
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => remove(p)}
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
    <Table<AiProvider>
      rowKey="id"
      columns={columns}
      dataSource={providers}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content' }}
    />
  );
}
