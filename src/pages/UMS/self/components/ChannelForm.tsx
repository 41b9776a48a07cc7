/**
 * Add or edit a channel in a modal: a kind selector (kinds this server does not offer are shown
 * disabled, with the reason) and the fields of that kind. Editing never shows secrets back: secret
 * fields start empty, say what is set, and are changed only if the user types anew. The kind of an
 * existing channel cannot change.
 */
import { zodRule } from '@/components/zodRule';
import { CHANNEL_KIND_LABELS, ChannelBody, type Channel, type ChannelKindInfo } from '@/contract';
import { errorMessageOf, fieldErrorsOf, statusOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import {
  ModalForm,
  ProForm,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import { Form, TimePicker, message } from 'antd';
import type React from 'react';
import { KindTag } from '../../components/kinds';
import { createBody, initialValues, patchBody, type ChannelFormValues } from './channelBody';
import EmailFields from './EmailFields';
import RobotFields from './RobotFields';
import WebhookFields from './WebhookFields';
import { freshModal } from '@/components/formDialog';
import { useState } from 'react';

interface Props {
  /** The channel being edited; absent to add a new one. */
  channel?: Channel;
  /** What this server offers (GET /api/ums/channel-kinds); all kinds while it loads. */
  kinds?: ChannelKindInfo[];
  trigger: React.ReactElement;
  onSaved: () => void;
  /** Open at once (another page sent the user here to add a channel). */
  defaultOpen?: boolean;
  /** The dialog closed, saved or not. */
  onClosed?: () => void;
}

const FIELDS = [
  'kind',
  'name',
  'webhook',
  'secret',
  'keyword',
  'email',
  'method',
  'headers',
  'bodyTemplate',
  'successStatus',
  'successPath',
  'successValue',
  'perMinute',
] as const;

function KindFields({ kind, channel }: { kind: ChannelFormValues['kind']; channel?: Channel }) {
  if (kind === 'email') return <EmailFields channel={channel} />;
  if (kind === 'webhook') return <WebhookFields channel={channel} />;
  return <RobotFields kind={kind} channel={channel} />;
}

export default function ChannelForm({ channel, kinds, trigger, onSaved, defaultOpen = false, onClosed }: Props) {
  const [form] = Form.useForm<ChannelFormValues>();
  const editing = channel !== undefined;
  const [open, setOpen] = useState(defaultOpen);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) onClosed?.();
  };

  const onFinish = async (v: ChannelFormValues) => {
    try {
      if (channel)
        await call(
          umsApi.updateChannel,
          { params: { id: channel.id }, body: patchBody(v, channel) },
          { skipErrorHandler: true },
        );
      else await call(umsApi.createChannel, { body: createBody(v) }, { skipErrorHandler: true });
      // A new address is mailed a confirmation link first (editing to the same address is not).
      const mailed = v.kind === 'email' && (!channel || channel.webhookMasked !== v.email?.trim().toLowerCase());
      const saved = editing ? '渠道已保存' : `${CHANNEL_KIND_LABELS[v.kind]}渠道已添加`;
      if (mailed) message.success(`${saved}。确认邮件已发送到 ${v.email}：收件人打开邮件中的链接后，才会收到推送`, 8);
      else message.success(saved);
      onSaved();
      return true;
    } catch (e) {
      // The channel was saved but its confirmation mail could not go: it is listed as 待确认.
      if (statusOf(e) === 502) onSaved();
      const fields = fieldErrorsOf(e);
      const names = FIELDS.filter((f) => fields[f]);
      form.setFields(names.map((name) => ({ name, errors: fields[name] })));
      const quiet = fields.quietStart ?? fields.quietEnd;
      if (quiet) form.setFields([{ name: 'quiet', errors: quiet }]);
      message.error(errorMessageOf(e));
      return false;
    }
  };

  const options = (kinds ?? []).map((k) => ({
    value: k.kind,
    label: k.available ? k.label : `${k.label}（${k.reason ?? '不可用'}）`,
    disabled: !k.available,
  }));

  return (
    <ModalForm<ChannelFormValues>
      form={form}
      title={editing ? `编辑渠道「${channel.name}」` : '添加推送渠道'}
      trigger={trigger}
      open={open}
      onOpenChange={onOpenChange}
      width={600}
      modalProps={freshModal(form)}
      submitter={{ searchConfig: { submitText: editing ? '保存' : '添加', resetText: '取消' } }}
      initialValues={initialValues(channel)}
      onFinish={onFinish}
    >
      {editing ? (
        <ProForm.Item label="类型">
          <KindTag kind={channel.kind} />
        </ProForm.Item>
      ) : (
        <ProFormDependency name={['kind']}>
          {({ kind }) => (
            <ProFormSelect
              name="kind"
              label="类型"
              allowClear={false}
              options={
                options.length
                  ? options
                  : Object.entries(CHANNEL_KIND_LABELS).map(([value, label]) => ({ value, label }))
              }
              extra={kinds?.find((k) => k.kind === kind)?.pacing}
            />
          )}
        </ProFormDependency>
      )}
      <ProFormText
        name="name"
        label="名称"
        placeholder="例如：我的提醒群"
        rules={[{ required: true, message: '请输入名称' }, zodRule(ChannelBody.shape.name)]}
      />
      <ProFormDependency name={['kind']}>
        {({ kind }) => <KindFields kind={channel?.kind ?? kind ?? 'dingtalk'} channel={channel} />}
      </ProFormDependency>
      <Form.Item
        label="免打扰时段"
        name="quiet"
        extra="可选，按门户时区；时段内的消息推迟到结束时发送，紧急消息不受限制。可跨午夜，如 22:00 至 07:00。"
      >
        <TimePicker.RangePicker
          format="HH:mm"
          order={false}
          minuteStep={5}
          allowClear
          placeholder={['开始', '结束']}
          style={{ maxWidth: 260 }}
        />
      </Form.Item>
      <ProFormSwitch
        name="digestOn"
        label="溢出摘要"
        extra="发送频率受限时，等待超过设定时间的消息合并成一条摘要发送，而不是逐条迟到。"
      />
      <ProFormDependency name={['digestOn']}>
        {({ digestOn }) =>
          digestOn && (
            <ProFormDigit
              name="digestAfterSeconds"
              label="等待超过"
              min={30}
              max={3600}
              fieldProps={{ precision: 0, addonAfter: '秒时合并', style: { width: 200 } }}
              rules={[zodRule(ChannelBody.shape.digestAfterSeconds)]}
            />
          )
        }
      </ProFormDependency>
      <ProFormSwitch
        name="isDefault"
        label="设为默认渠道"
        disabled={channel?.isDefault}
        extra={channel?.isDefault ? '这是默认渠道；把另一个渠道设为默认即可更换。' : '未指定渠道的消息发到默认渠道。'}
      />
    </ModalForm>
  );
}
