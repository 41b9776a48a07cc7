/**
 * /OCS/OCSAdmin/models: AI providers (OpenAI-compatible endpoints, keys write-only) and their models
 * with price, state and limits, and a test that sends one sample question. The folder is aiModels, not
 * models: Umi loads every file under a folder named models as a global model on every page.
 */
import type { AiAdminModel, AiProvider } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Space, Tooltip } from 'antd';
import SetupChecklist, { refreshOcsSetup } from '../components/SetupChecklist';
import ModelDrawer from './components/ModelDrawer';
import ModelTable from './components/ModelTable';
import ProviderDrawer from './components/ProviderDrawer';
import ProviderTable from './components/ProviderTable';

export default function AdminModelsPage() {
  const providers = useRequest<AiProvider[], []>(() =>
    call(ocsAiApi.listProviders, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  const models = useRequest<AiAdminModel[], []>(() =>
    call(ocsAiApi.listModels, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  const refresh = () => {
    providers.refresh();
    models.refresh();
    refreshOcsSetup();
  };
  const failed = providers.error ?? models.error;
  const providerList = providers.data ?? [];
  const addModel = (
    <Button type="primary" icon={<PlusOutlined aria-hidden />} disabled={providerList.length === 0}>
      添加模型
    </Button>
  );

  return (
    <PageContainer
      title="AI 模型管理"
      content="配置 OpenAI 兼容的服务商（OpenAI、DeepSeek、通义千问、vLLM、Ollama 等）与用户可选的模型。API 密钥加密保存，只显示掩码。"
    >
      <SetupChecklist />
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {failed && (
          <Alert
            type="error"
            showIcon
            message={`加载失败：${errorMessageOf(failed)}`}
            action={
              <Button size="small" onClick={refresh}>
                重试
              </Button>
            }
          />
        )}
        <Card
          title="服务商"
          extra={
            <ProviderDrawer
              onSaved={refresh}
              trigger={
                <Button type="primary" icon={<PlusOutlined aria-hidden />}>
                  添加服务商
                </Button>
              }
            />
          }
        >
          <ProviderTable providers={providerList} loading={providers.loading} onChanged={refresh} />
        </Card>
        <Card
          title="模型"
          extra={
            providerList.length === 0 ? (
              <Tooltip title="请先添加服务商">{addModel}</Tooltip>
            ) : (
              <ModelDrawer providers={providerList} onSaved={refresh} trigger={addModel} />
            )
          }
        >
          <ModelTable
            models={models.data ?? []}
            providers={providerList}
            loading={models.loading}
            onChanged={refresh}
          />
        </Card>
      </Space>
    </PageContainer>
  );
}
