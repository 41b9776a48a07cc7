/** New or edit a template in a modal, with the live preview beside the fields. */
import { zodRule } from '@/components/zodRule';
import { TemplateBody, type Template } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { ModalForm, ProFormRadio, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { Form, message } from 'antd';
import type React from 'react';
import { useState } from 'react';
import TemplatePreview from '../../components/TemplatePreview';
import { freshModal } from '@/components/formDialog';

interface Values {
  name: string;
  title: string;
  content: string;
  type: 'text' | 'markdown';
}

interface Props {
  template?: Template;
  trigger: React.ReactElement;
  onSaved: () => void;
}

export default function TemplateForm({ template, trigger, onSaved }: Props) {
  const [form] = Form.useForm<Values>();
  const [vars, setVars] = useState<Record<string, string>>({});
  const title = Form.useWatch('title', form) ?? '';
  const content = Form.useWatch('content', form) ?? '';
  const type = Form.useWatch('type', form) ?? 'markdown';

  const onFinish = async (v: Values) => {
    const body = { name: v.name.trim(), title: v.title?.trim() ?? '', content: v.content, type: v.type };
    try {
      if (template)
        await call(umsApi.updateTemplate, { params: { id: template.id }, body }, { skipErrorHandler: true });
      else await call(umsApi.createTemplate, { body }, { skipErrorHandler: true });
      message.success(template ? '模板已保存' : '模板已创建');
      onSaved();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      form.setFields(
        (['name', 'title', 'content'] as const)
          .filter((f) => fields[f])
          .map((name) => ({ name, errors: fields[name] })),
      );
      message.error(errorMessageOf(e));
      return false;
    }
  };

  return (
    <ModalForm<Values>
      form={form}
      title={template ? `编辑模板「${template.name}」` : '新建模板'}
      trigger={trigger}
      width={720}
      modalProps={freshModal(form)}
      submitter={{ searchConfig: { submitText: template ? '保存' : '创建', resetText: '取消' } }}
      initialValues={{
        name: template?.name ?? '',
        title: template?.title ?? '',
        content: template?.content ?? '',
        type: template?.type ?? 'markdown',
      }}
      onFinish={onFinish}
    >
      <ProFormText
        name="name"
        label="名称"
        placeholder="例如：构建结果"
        extra="发送时用名称（或编号）引用：template=名称"
        rules={[{ required: true, message: '请输入模板名称' }, zodRule(TemplateBody.shape.name)]}
      />
      <ProFormText
        name="title"
        label="标题"
        placeholder="例如：{{project}} 构建{{result}}"
        rules={[zodRule(TemplateBody.shape.title)]}
      />
      <ProFormRadio.Group
        name="type"
        label="类型"
        radioType="button"
        options={[
          { value: 'markdown', label: 'Markdown' },
          { value: 'text', label: '纯文本' },
        ]}
      />
      <ProFormTextArea
        name="content"
        label="内容"
        placeholder="例如：分支 **{{branch}}** {{result}}"
        fieldProps={{ rows: 6 }}
        rules={[{ required: true, message: '请输入模板内容' }, zodRule(TemplateBody.shape.content)]}
      />
      <Form.Item label="预览">
        <TemplatePreview title={title} content={content} type={type} vars={vars} onVarsChange={setVars} />
      </Form.Item>
    </ModalForm>
  );
}
