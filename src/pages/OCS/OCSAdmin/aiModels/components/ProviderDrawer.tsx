/**
 * Add or edit an AI provider in a drawer. The API key is write-only: editing shows only its mask,
 * and an empty key field keeps the stored key.
 */
import { zodRule } from '@/components/zodRule';
import { AiProviderBody, type AiProvider } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { DrawerForm, ProFormText } from '@ant-design/pro-components';
import { Form, message } from 'antd';
import type React from 'react';
import { freshDrawer } from '@/components/formDialog';

interface Values {
  name: string;
  baseURL: string;
  apiKey?: string;
}

interface Props {
  provider?: AiProvider;
  trigger: React.ReactElement;
  onSaved: () => void;
}

export default function ProviderDrawer({ provider, trigger, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const editing = provider !== undefined;

  const onFinish = async (v: Values) => {
    try {
      if (provider) {
        const body = { name: v.name, baseURL: v.baseURL, ...(v.apiKey?.trim() ? { apiKey: v.apiKey.trim() } : {}) };
        await call(ocsAiApi.updateProvider, { params: { id: provider.id }, body }, { skipErrorHandler: true });
      } else {
        await call(
          ocsAiApi.createProvider,
          { body: { name: v.name, baseURL: v.baseURL, apiKey: v.apiKey ?? '' } },
          { skipErrorHandler: true },
        );
      }
      message.success(editing ? '服务商已保存' : '服务商已添加');
      onSaved();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(
        (['name', 'baseURL', 'apiKey'] as const)
          .filter((f) => fields[f])
          .map((name) => ({ name, errors: fields[name] })),
      );
      message.error(errorMessageOf(e));
      return false;
    }
  };

  return (
    <DrawerForm<Values>
      form={form}
      title={editing ? `编辑服务商「${provider.name}」` : '添加服务商'}
      trigger={trigger}
      width={520}
      drawerProps={freshDrawer(form)}
      submitter={{ searchConfig: { submitText: editing ? '保存' : '添加', resetText: '取消' } }}
      initialValues={{ name: provider?.name ?? '', baseURL: provider?.baseURL ?? '' }}
      onFinish={onFinish}
    >
      <ProFormText
        name="name"
        label="名称"
        placeholder="例如：DeepSeek"
        rules={[{ required: true, message: '请输入名称' }, zodRule(AiProviderBody.shape.name)]}
      />
      <ProFormText
        name="baseURL"
        label="接口地址（Base URL）"
        placeholder="https://api.deepseek.com/v1"
        extra="OpenAI 兼容接口的地址，通常以 /v1 结尾；不要在地址中包含密钥。"
        rules={[{ required: true, message: '请输入接口地址' }, zodRule(AiProviderBody.shape.baseURL)]}
      />
      <ProFormText.Password
        name="apiKey"
        label="API 密钥"
        placeholder={editing ? `已设置（${provider.apiKeyMasked}），留空保持不变` : 'sk-…'}
        extra={
          editing
            ? `当前密钥：${provider.apiKeyMasked}。密钥加密保存，不会再显示。`
            : '密钥加密保存，保存后只显示掩码。'
        }
        fieldProps={{ autoComplete: 'new-password' }}
        rules={editing ? [] : [{ required: true, message: '请输入 API 密钥' }]}
      />
    </DrawerForm>
  );
}
