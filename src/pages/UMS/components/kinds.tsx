/** How each channel kind is named and shown: its tag, who answers a test message, where to look. */
import { CHANNEL_KIND_LABELS, type ChannelKind } from '@/contract';
import { Tag } from 'antd';

const COLORS: Record<ChannelKind, string> = {
  dingtalk: 'blue',
  wecom: 'green',
  feishu: 'cyan',
  webhook: 'purple',
  email: 'gold',
};

/** Who answers for a channel of this kind (the test result's title). */
export const KIND_SERVICE: Record<ChannelKind, string> = {
  dingtalk: '钉钉',
  wecom: '企业微信',
  feishu: '飞书',
  webhook: '目标服务器',
  email: '邮件服务器',
};

/** Where a delivered test message shows up. */
export const KIND_WHERE: Record<ChannelKind, string> = {
  dingtalk: '请查看钉钉群',
  wecom: '请查看企业微信群',
  feishu: '请查看飞书群',
  webhook: '请查看接收方',
  email: '请查看邮箱',
};

export function KindTag({ kind }: { kind: ChannelKind }) {
  return <Tag color={COLORS[kind]}>{CHANNEL_KIND_LABELS[kind]}</Tag>;
}

/** A success rate as the user reads it: 96%（24/25）, or 暂无 without attempts. */
export function rateText(h: { attempts: number; delivered: number; successRate: number | null }): string {
  if (h.successRate === null) return '暂无';
  return `${Math.round(h.successRate * 100)}%（${h.delivered}/${h.attempts}）`;
}
