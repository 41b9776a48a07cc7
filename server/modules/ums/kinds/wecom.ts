/**
 * The WeCom (企业微信) group robot: `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…`, text (up to
 * 2048 bytes, with @mentions by mobile) and markdown (up to 4096 bytes) messages, its documented limit
 * of 20 messages a minute per robot (UMS_ROBOT_PER_MINUTE) and its global error codes. The key in the
 * URL is the robot's only credential: stored encrypted, shown masked.
 */
import { badRequest } from '../../../errors';
import { maskQueryToken } from './dingtalk';
import { allowListed, robotPaceKey, postToRobot, truncateBytes, type RobotCodes } from './http';
import type { ChannelAdapter, OutgoingMessage } from './types';

export const WECOM_WEBHOOK = 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send';
const TEXT_MAX_BYTES = 2048;
const MARKDOWN_MAX_BYTES = 4096;

export const WECOM_CODES: RobotCodes = {
  service: '企业微信',
  permanent: {
    93000: 'Webhook 地址无效，或机器人已被移出群聊：请检查 key',
    93004: '机器人已被停用',
    93008: '机器人不在该群聊中',
    40008: '不支持的消息类型',
    40058: '消息内容不合法或超出长度限制',
    44004: '消息内容为空',
    45002: '消息内容超出长度限制',
    40013: '企业 ID 无效',
  },
  rateLimited: {
    45009: '机器人发送过于频繁（每分钟最多 20 条），稍后自动继续发送',
    45033: '接口并发调用超过限制，稍后自动继续发送',
  },
  transient: { [-1]: '企业微信系统繁忙，将自动重试' },
};

export function validateWeComWebhook(raw: string, allowlist: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Webhook 地址格式不正确', { webhook: ['Webhook 地址格式不正确'] });
  }
  if (`${url.origin}${url.pathname}` === WECOM_WEBHOOK) {
    if (!/^[A-Za-z0-9-]{8,64}$/.test(url.searchParams.get('key') ?? '')) {
      throw badRequest('Webhook 缺少有效的 key', { webhook: ['Webhook 缺少有效的 key'] });
    }
    return url.toString();
  }
  if (allowListed(raw, allowlist)) return url.toString();
  throw badRequest('只接受企业微信机器人地址 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…', {
    webhook: ['只接受企业微信群机器人 Webhook 地址'],
  });
}

export function wecomBody(m: OutgoingMessage): Record<string, unknown> {
  if (m.type === 'text') {
    const mentions = [...(m.extra?.atMobiles ?? []), ...(m.extra?.isAtAll ? ['@all'] : [])];
    const text = m.title ? `${m.title}\n${m.content}` : m.content;
    return {
      msgtype: 'text',
      text: {
        content: truncateBytes(text, TEXT_MAX_BYTES),
        ...(mentions.length ? { mentioned_mobile_list: mentions } : {}),
      },
    };
  }
  // WeCom's markdown has no separate title: it leads the message as a heading.
  const text = m.title ? `### ${m.title}\n${m.content}` : m.content;
  return { msgtype: 'markdown', markdown: { content: truncateBytes(text, MARKDOWN_MAX_BYTES) } };
}

export const wecom: ChannelAdapter = {
  kind: 'wecom',
  address: (raw, ctx) => validateWeComWebhook(raw, ctx.allowlist),
  mask: (address) => maskQueryToken(address, ['key']),
  paceKey: (t) => robotPaceKey(t.address),
  windows: (_t, ctx) => (ctx.pacing.robotPerMinute > 0 ? [{ ms: 60_000, max: ctx.pacing.robotPerMinute }] : []),
  // The limit is per minute: a minute's pause is enough.
  throttleMs: 60_000,
  send: (t, m, ctx) =>
    postToRobot(t.address, wecomBody(m), ctx.timeoutMs, WECOM_CODES, (json) => ({
      code: typeof json.errcode === 'number' ? json.errcode : null,
      msg: typeof json.errmsg === 'string' ? json.errmsg : '',
    })),
};
