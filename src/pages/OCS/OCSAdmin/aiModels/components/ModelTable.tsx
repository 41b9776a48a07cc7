/** The models: provider, id, price, state, limits, and test/edit/delete. */
import type { AiAdminModel, AiModelTestResult, AiProvider } from '@/contract';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { Button, Modal, Popconfirm, Space, Table, Tag, message, type TableColumnsType } from 'antd';
import { useState } from 'react';
import ModelDrawer from './ModelDrawer';
import ModelTestResult from './ModelTestResult';

interface Props {
  models: AiAdminModel[];
  providers: AiProvider[];
  loading: boolean;
  onChanged: () => void;
}

export default function ModelTable({ models, providers, loading, onChanged }: Props) {
  const [testing, setTesting] = useState<number>();
  const [tested, setTested] = useState<{ name: string; result: AiModelTestResult }>();

  const runTest = async (m: AiAdminModel) => {
    setTesting(m.id);
    try {
      const res = await call(ocsAiApi.testModel, { params: { id: m.id }, body: { type: 'single' } });
      setTested({ name: m.displayName, result: res.data });
    } catch {
      // The request layer has shown the error.
    } finally {
      setTesting(undefined);
    }
  };
  const remove = async (m: AiAdminModel) => {
    try {
      await call(ocsAiApi.deleteModel, { params: { id: m.id } });
      message.success(`模型「${m.displayName}」已删除`);
      onChanged();
    } catch {
      // The request layer has shown the error.
    }
  };

  const columns: TableColumnsType<AiAdminModel> = [
    { title: '显示名称', dataIndex: 'displayName' },
    { title: '模型 ID', dataIndex: 'model' },
    { title: '服务商', dataIndex: 'providerName' },
    { title: '单价', dataIndex: 'price', render: (p) => `${p} 积分/题` },
    { title: '状态', dataIndex: 'enabled', render: (e) => (e ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>) },
    { title: '超时', dataIndex: 'timeoutMs', render: (t: number) => `${t / 1000} 秒` },
    { title: '最大 Token', dataIndex: 'maxTokens', render: (t) => t ?? '默认' },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      key: 'actions',
      render: (_, m) => (
        <Space size={0}>
          <Button type="link" size="small" loading={testing === m.id} onClick={() => runTest(m)}>
            测试
          </Button>
          <ModelDrawer
            model={m}
            providers={providers}
            onSaved={onChanged}
            trigger={
              <Button type="link" size="small">
                编辑
              </Button>
            }
          />
          <Popconfirm
            title={`删除模型「${m.displayName}」？`}
            description="选了这个模型的用户将改用最便宜的可用模型。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => remove(m)}
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
      <Table<AiAdminModel>
        rowKey="id"
        columns={columns}
        dataSource={models}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      <Modal
        open={tested !== undefined}
        title="模型测试结果"
        footer={null}
        onCancel={() => setTested(undefined)}
        width={600}
      >
        {tested && <ModelTestResult name={tested.name} result={tested.result} />}
      </Modal>
    </>
  );
}
