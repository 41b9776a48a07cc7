/**
 * Bind or edit a DingTalk robot in a modal. Editing never shows the webhook or secret back:
 * both fields start empty, say what is set, and are changed only if the user types anew.
 */
import { zodRule } from '@/components/zodRule';
import { ChannelBody, type Channel } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import { createChannel, updateChannel } from '@/services/ums';
import { ModalForm, ProFormCheckbox, ProFormDependency, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { Form, Tag, message } from 'antd';
import type React from 'react';
import { createBody, patchBody, type ChannelFormValues } from './channelBody';

interface Props {
  /** The channel being edited; absent to bind a new one. */
  channel?: Channel;
  trigger: React.ReactElement;
  onSaved: () => void;
}

const WEBHOOK_HINT = '钉钉群 → 群设置 → 机器人 → 自定义机器人，复制 Webhook 地址。';

export default function ChannelForm({ channel, trigger, onSaved }: Props) {
  const [form] = Form.useForm<ChannelFormValues>();
  const editing = channel !== undefined;

  const onFinish = async (v: ChannelFormValues) => {
    try {
      if (channel) await updateChannel(channel.id, patchBody(v, channel), { skipErrorHandler: true });
      else await createChannel(createBody(v), { skipErrorHandler: true });
      message.success(editing ? '渠道已保存' : '钉钉机器人已绑定');
      onSaved();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      const names = (['name', 'webhook', 'secret', 'keyword'] as const).filter((f) => fields[f]);
      form.setFields(names.map((name) => ({ name, errors: fields[name] })));
      message.error(errorMessageOf(e));
      return false;
    }
  };

  return (
    <ModalForm<ChannelFormValues>
      form={form}
      title={editing ? `编辑渠道「${channel.name}」` : '绑定钉钉机器人'}
      trigger={trigger}
      width={560}
      modalProps={{ destroyOnClose: true }}
      submitter={{ searchConfig: { submitText: editing ? '保存' : '绑定', resetText: '取消' } }}
      initialValues={{
        name: channel?.name ?? '',
        keyword: channel?.keyword ?? '',
        isDefault: channel?.isDefault ?? false,
      }}
      onFinish={onFinish}
    >
      <ProFormText
        name="name"
        label="名称"
        placeholder="例如：我的提醒群"
        rules={[{ required: true, message: '请输入名称' }, zodRule(ChannelBody.shape.name)]}
      />
      <ProFormText
        name="webhook"
        label="Webhook 地址"
        placeholder={editing ? '留空保持不变' : 'https://oapi.dingtalk.com/robot/send?access_token=…'}
        extra={editing ? `当前：${channel.webhookMasked}` : WEBHOOK_HINT}
        rules={
          editing
            ? [zodRule(ChannelBody.shape.webhook)]
            : [{ required: true, message: '请输入 Webhook 地址' }, zodRule(ChannelBody.shape.webhook)]
        }
      />
      <ProFormDependency name={['removeSecret']}>
        {({ removeSecret }) => (
          <ProFormText.Password
            name="secret"
            label={
              <>
                加签密钥
                {channel?.hasSecret && (
                  <Tag color="green" style={{ marginLeft: 8 }}>
                    已设置
                  </Tag>
                )}
              </>
            }
            disabled={Boolean(removeSecret)}
            placeholder={channel?.hasSecret ? '已设置，留空保持不变' : '可选，SEC 开头'}
            extra="机器人安全设置选择“加签”时填写；保存后不会再显示。"
            fieldProps={{ autoComplete: 'new-password' }}
            rules={[zodRule(ChannelBody.shape.secret)]}
          />
        )}
      </ProFormDependency>
      {channel?.hasSecret && <ProFormCheckbox name="removeSecret">移除加签</ProFormCheckbox>}
      <ProFormText
        name="keyword"
        label="自定义关键词"
        placeholder="可选"
        extra="机器人安全设置选择“自定义关键词”时填写，发送时会自动带上。"
        rules={[zodRule(ChannelBody.shape.keyword)]}
      />
      <ProFormSwitch
        name="isDefault"
        label="设为默认渠道"
        disabled={channel?.isDefault}
        extra={channel?.isDefault ? '这是默认渠道；把另一个渠道设为默认即可更换。' : '未指定渠道的消息发到默认渠道。'}
      />
    </ModalForm>
  );
}
