/** Add or edit a model in a drawer: provider, model id, name, price, enabled, timeout (seconds), max tokens. */
import { OCS_MODEL_TIMEOUT, type AiAdminModel, type AiProvider } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { DrawerForm, ProFormDigit, ProFormSelect, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { Form, message } from 'antd';
import type React from 'react';
import { freshDrawer } from '@/components/formDialog';

interface Values {
  providerId: number;
  model: string;
  displayName: string;
  price: number;
  enabled: boolean;
  timeoutSeconds: number;
  maxTokens?: number | null;
}

interface Props {
  model?: AiAdminModel;
  providers: AiProvider[];
  trigger: React.ReactElement;
  onSaved: () => void;
}

export default function ModelDrawer({ model, providers, trigger, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const editing = model !== undefined;

  const onFinish = async (v: Values) => {
    const body = {
      providerId: v.providerId,
      model: v.model,
      displayName: v.displayName,
      price: v.price,
      enabled: v.enabled,
      timeoutMs: Math.round(v.timeoutSeconds * 1000),
      maxTokens: v.maxTokens ?? null,
    };
    try {
      if (model) await call(ocsAiApi.updateModel, { params: { id: model.id }, body }, { skipErrorHandler: true });
      else await call(ocsAiApi.createModel, { body }, { skipErrorHandler: true });
      message.success(editing ? '模型已保存' : '模型已添加');
      onSaved();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      const map: Record<string, keyof Values> = { timeoutMs: 'timeoutSeconds' };
      form.setFields(Object.entries(fields).map(([f, errors]) => ({ name: map[f] ?? (f as keyof Values), errors })));
      message.error(errorMessageOf(e));
      return false;
    }
  };

  return (
    <DrawerForm<Values>
      form={form}
      title={editing ? `编辑模型「${model.displayName}」` : '添加模型'}
      trigger={trigger}
      width={520}
      drawerProps={freshDrawer(form)}
      submitter={{ searchConfig: { submitText: editing ? '保存' : '添加', resetText: '取消' } }}
      initialValues={{
        providerId: model?.providerId ?? providers[0]?.id,
        model: model?.model ?? '',
        displayName: model?.displayName ?? '',
        price: model?.price ?? 1,
        enabled: model?.enabled ?? true,
        timeoutSeconds: (model?.timeoutMs ?? OCS_MODEL_TIMEOUT.default) / 1000,
        maxTokens: model?.maxTokens ?? null,
      }}
      onFinish={onFinish}
    >
      <ProFormSelect
        name="providerId"
        label="服务商"
        options={providers.map((p) => ({ label: p.name, value: p.id }))}
        rules={[{ required: true, message: '请选择服务商' }]}
      />
      <ProFormText
        name="model"
        label="模型 ID"
        placeholder="例如：deepseek-chat"
        rules={[
          { required: true, message: '请输入模型 ID' },
          { max: 128, message: '模型 ID 最多 128 个字符' },
        ]}
      />
      <ProFormText
        name="displayName"
        label="显示名称"
        placeholder="用户看到的名称，例如：DeepSeek V3"
        rules={[
          { required: true, message: '请输入显示名称' },
          { max: 64, message: '显示名称最多 64 个字符' },
        ]}
      />
      <ProFormDigit
        name="price"
        label="单价（积分/题）"
        min={0}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true, message: '请输入单价' }]}
      />
      <ProFormSwitch
        name="enabled"
        label="启用"
        extra="停用的模型不出现在用户的选择中，已选择它的用户改用最便宜的可用模型。"
      />
      <ProFormDigit
        name="timeoutSeconds"
        label="超时（秒）"
        min={OCS_MODEL_TIMEOUT.min / 1000}
        max={OCS_MODEL_TIMEOUT.max / 1000}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true, message: '请输入超时' }]}
      />
      <ProFormDigit
        name="maxTokens"
        label="最大 Token 数"
        min={1}
        fieldProps={{ precision: 0 }}
        placeholder="留空使用服务商默认值"
      />
    </DrawerForm>
  );
}
