/**
 * /UMS/templates: the user's message templates with {{variables}} — create, edit (live preview),
 * delete after confirmation — and how to send with one from a script.
 */
import { formatTime } from '@/components/time';
import type { Template } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import {
  Alert,
  Button,
  Card,
  Empty,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
  message,
  type TableColumnsType,
} from 'antd';
import { errorMessageOf } from '@/requestErrorConfig';
import TemplateForm from './components/TemplateForm';

export default function TemplatesPage() {
  const { data, loading, error, refresh } = useRequest(() =>
    call(umsApi.listTemplates, {}, { skipErrorHandler: true }),
  );
  const templates = data?.data ?? [];

  const remove = async (t: Template) => {
    try {
      await call(umsApi.deleteTemplate, { params: { id: t.id } });
      message.success(`模板「${t.name}」已删除`);
      refresh();
    } catch {
      // The request layer has shown the error.
    }
  };

  const addButton = (
    <TemplateForm
      onSaved={refresh}
      trigger={
        <Button type="primary" icon={<PlusOutlined aria-hidden />}>
          新建模板
        </Button>
      }
    />
  );

  const columns: TableColumnsType<Template> = [
    { title: '名称', dataIndex: 'name', width: 160 },
    { title: '标题', dataIndex: 'title', ellipsis: true, render: (t: string) => t || '-' },
    { title: '类型', dataIndex: 'type', width: 100, render: (t: string) => (t === 'text' ? '纯文本' : 'Markdown') },
    {
      title: '变量',
      dataIndex: 'variables',
      render: (vars: string[]) => (vars.length ? vars.map((v) => <Tag key={v}>{v}</Tag>) : '-'),
    },
    { title: '更新时间', dataIndex: 'updatedAt', width: 170, render: (t: string) => formatTime(t) },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: 130,
      render: (_, t) => (
        <Space size={0}>
          <TemplateForm
            template={t}
            onSaved={refresh}
            trigger={
              <Button type="link" size="small">
                编辑
              </Button>
            }
          />
          <Popconfirm
            title={`删除模板「${t.name}」？`}
            description="用这个模板发送的脚本将会失败。"
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => remove(t)}
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
    <PageContainer title="消息模板" content="把常发的消息存成模板，用 {{变量}} 留出每次不同的部分；网页和接口都能用。">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && !data && (
          <Alert
            type="error"
            showIcon
            message={`模板加载失败：${errorMessageOf(error)}`}
            action={
              <Button size="small" onClick={refresh}>
                重试
              </Button>
            }
          />
        )}
        <Card title="我的模板" extra={templates.length > 0 && addButton}>
          {data && templates.length === 0 ? (
            <Empty description="还没有模板">{addButton}</Empty>
          ) : (
            <Table<Template>
              rowKey="id"
              columns={columns}
              dataSource={templates}
              loading={loading}
              pagination={{ ...TABLE_PAGINATION, hideOnSinglePage: true }}
              scroll={{ x: 800 }}
            />
          )}
        </Card>
        <Card title="在脚本里使用">
          <Typography.Paragraph copyable style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {`curl -X POST ${window.location.origin}/api/ums/send -H "Authorization: Bearer pt_xxx" -H "Content-Type: application/json" -d '{"template":"构建结果","vars":{"project":"portal","result":"成功"}}'`}
          </Typography.Paragraph>
        </Card>
      </Space>
    </PageContainer>
  );
}
