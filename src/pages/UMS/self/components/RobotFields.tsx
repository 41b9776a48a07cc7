/**
 * The fields of a robot channel (DingTalk, WeCom, Feishu): the webhook, and for DingTalk and Feishu
 * the signing secret (write-only: an edit starts empty and says whether one is set) and the keyword.
 */
import { zodRule } from '@/components/zodRule';
import { ChannelBody, ChannelKeyword, DingTalkSecret, FeishuSecret, type Channel } from '@/contract';
import { ProFormCheckbox, ProFormDependency, ProFormText } from '@ant-design/pro-components';
import { Tag } from 'antd';

type RobotKind = 'dingtalk' | 'wecom' | 'feishu';

const WEBHOOK: Record<RobotKind, { placeholder: string; hint: string }> = {
  dingtalk: {
    placeholder: 'https://oapi.dingtalk.com/robot/send?access_token=…',
    hint: '钉钉群 → 群设置 → 机器人 → 自定义机器人，复制 Webhook 地址。',
  },
  wecom: {
    placeholder: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…',
    hint: '企业微信群 → 右上角“…” → 添加群机器人，复制 Webhook 地址（其中的 key 加密保存）。',
  },
  feishu: {
    placeholder: 'https://open.feishu.cn/open-apis/bot/v2/hook/…',
    hint: '飞书群 → 设置 → 群机器人 → 添加机器人 → 自定义机器人，复制 Webhook 地址。',
  },
};

const SECRET = {
  dingtalk: {
    label: '加签密钥',
    placeholder: '可选，SEC 开头',
    extra: '机器人安全设置选择“加签”时填写；保存后不会再显示。',
    schema: DingTalkSecret,
    remove: '移除加签',
  },
  feishu: {
    label: '签名密钥',
    placeholder: '可选',
    extra: '机器人安全设置选择“签名校验”时填写；保存后不会再显示。',
    schema: FeishuSecret,
    remove: '移除签名校验',
  },
};

export default function RobotFields({ kind, channel }: { kind: RobotKind; channel?: Channel }) {
  const editing = channel !== undefined;
  const secret = kind === 'wecom' ? null : SECRET[kind];
  return (
    <>
      <ProFormText
        name="webhook"
        label="Webhook 地址"
        placeholder={editing ? '留空保持不变' : WEBHOOK[kind].placeholder}
        extra={editing ? `当前：${channel.webhookMasked}` : WEBHOOK[kind].hint}
        rules={
          editing
            ? [zodRule(ChannelBody.shape.webhook)]
            : [{ required: true, message: '请输入 Webhook 地址' }, zodRule(ChannelBody.shape.webhook)]
        }
      />
      {secret && (
        <ProFormDependency name={['removeSecret']}>
          {({ removeSecret }) => (
            <ProFormText.Password
              name="secret"
              label={
                <>
                  {secret.label}
                  {channel?.hasSecret && (
                    <Tag color="green" style={{ marginLeft: 8 }}>
                      已设置
                    </Tag>
                  )}
                </>
              }
              disabled={Boolean(removeSecret)}
              placeholder={channel?.hasSecret ? '已设置，留空保持不变' : secret.placeholder}
              extra={secret.extra}
              fieldProps={{ autoComplete: 'new-password' }}
              rules={[zodRule(secret.schema)]}
            />
          )}
        </ProFormDependency>
      )}
      {secret && channel?.hasSecret && <ProFormCheckbox name="removeSecret">{secret.remove}</ProFormCheckbox>}
      {secret && (
        <ProFormText
          name="keyword"
          label="自定义关键词"
          placeholder="可选"
          extra="机器人安全设置选择“自定义关键词”时填写，发送时会自动带上。"
          rules={[zodRule(ChannelKeyword)]}
        />
      )}
    </>
  );
}
