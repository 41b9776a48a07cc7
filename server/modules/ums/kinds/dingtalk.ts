/**
 * The DingTalk custom robot as a channel kind: its webhook (oapi.dingtalk.com/robot/send with an
 * access_token, or an allow-listed gateway), 20 messages a minute per robot (UMS_ROBOT_PER_MINUTE) and
 * a 10-minute pause after its rate-limit errcodes; and its protocol: the request body per message type,
 * the HMAC-SHA256 signature computed fresh for every attempt, and the classification of its answers.
 * DingTalk answers HTTP 200 even on failure, so success is errcode 0 and nothing else.
 */
import crypto from 'node:crypto';
import { badRequest } from '../../../errors';
import { maskSecret } from '../../../lib/secretbox';
import { allowListed, postToRobot, robotPaceKey, withKeyword, type RobotCodes } from './http';
import type { RobotMessage } from './transport';
import type { ChannelAdapter } from './types';

export const PERMANENT_ERRCODES: Record<number, string> = {
  310000: '关键词、加签或 IP 校验未通过：请检查机器人安全设置中的关键词与加签密钥',
  300001: '机器人 access_token 缺失或无效',
  300005: '机器人 access_token 不存在',
  400101: '机器人 access_token 不存在',
  400102: '机器人已停用',
  400106: '机器人不存在或已被删除',
  430101: '消息内容不安全，被钉钉拦截',
  430102: '消息内容不安全，被钉钉拦截',
  430103: '消息内容不安全，被钉钉拦截',
  430104: '消息内容不安全，被钉钉拦截',
  460101: '消息过长，超出钉钉限制',
};
/** DingTalk's codes as the robots' common classification reads them (kinds/http.ts). */
const DINGTALK_CODES: RobotCodes = {
  service: '钉钉',
  permanent: PERMANENT_ERRCODES,
  rateLimited: Object.fromEntries(
    [130101, 410100, 660026].map((code) => [code, '机器人被钉钉限流，10 分钟后自动继续发送']),
  ),
  transient: { [-1]: '钉钉系统繁忙，将自动重试' },
};

export function robotBody(m: RobotMessage, keyword: string | null): Record<string, unknown> {
  const title = m.title || m.content.slice(0, 30);
  switch (m.type) {
    case 'text': {
      const text = m.title ? `${m.title}\n${m.content}` : m.content;
      return {
        msgtype: 'text',
        text: { content: withKeyword(text, keyword) },
        at: { atMobiles: m.extra?.atMobiles ?? [], isAtAll: Boolean(m.extra?.isAtAll) },
      };
    }
    case 'link':
      return {
        msgtype: 'link',
        link: {
          title: withKeyword(title, keyword),
          text: m.content,
          messageUrl: m.extra?.messageUrl ?? '',
          picUrl: m.extra?.picUrl ?? '',
        },
      };
    case 'actionCard':
      return {
        msgtype: 'actionCard',
        actionCard: {
          title,
          text: withKeyword(m.content, keyword),
          singleTitle: '查看详情',
          singleURL: m.extra?.singleURL ?? '',
        },
      };
    default:
      return {
        msgtype: 'markdown',
        markdown: { title: withKeyword(title, keyword), text: withKeyword(m.content, keyword) },
        at: { atMobiles: m.extra?.atMobiles ?? [], isAtAll: Boolean(m.extra?.isAtAll) },
      };
  }
}

/** sign = urlEncode(base64(HmacSHA256(secret, timestamp + "\n" + secret))). */
export function sign(secret: string, timestamp: number): string {
  const mac = crypto.createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
  return encodeURIComponent(mac);
}

export function signedUrl(webhook: string, secret: string | null, now = Date.now()): string {
  if (!secret) return webhook;
  const sep = webhook.includes('?') ? '&' : '?';
  return `${webhook}${sep}timestamp=${now}&sign=${sign(secret, now)}`;
}

export const DINGTALK_WEBHOOK = 'https://oapi.dingtalk.com/robot/send';

/** Accepts DingTalk's robot endpoint with an access_token, or a URL under an allow-listed base. */
export function validateDingTalkWebhook(raw: string, allowlist: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Webhook 地址格式不正确', { webhook: ['Webhook 地址格式不正确'] });
  }
  const base = `${url.origin}${url.pathname}`;
  if (base === DINGTALK_WEBHOOK) {
    if (!/^[A-Za-z0-9]{16,128}$/.test(url.searchParams.get('access_token') ?? '')) {
      throw badRequest('Webhook 缺少有效的 access_token', { webhook: ['Webhook 缺少有效的 access_token'] });
    }
    return url.toString();
  }
  if (allowListed(raw, allowlist)) return url.toString();
  throw badRequest('只接受钉钉机器人地址 https://oapi.dingtalk.com/robot/send?access_token=…', {
    webhook: ['只接受钉钉机器人 Webhook 地址'],
  });
}

/** Masks the query parameters that carry a robot's credential (access_token, key). */
export function maskQueryToken(webhook: string, names: string[]): string {
  const url = new URL(webhook);
  for (const name of names) {
    const token = url.searchParams.get(name);
    if (token) url.searchParams.set(name, maskSecret(token));
  }
  return decodeURIComponent(url.toString());
}

export const DINGTALK_THROTTLE_MS = 10 * 60_000;

export const dingtalk: ChannelAdapter = {
  kind: 'dingtalk',
  address: (raw, ctx) => validateDingTalkWebhook(raw, ctx.allowlist),
  mask: (address) => maskQueryToken(address, ['access_token']),
  paceKey: (t) => robotPaceKey(t.address),
  windows: (_t, ctx) => (ctx.pacing.robotPerMinute > 0 ? [{ ms: 60_000, max: ctx.pacing.robotPerMinute }] : []),
  throttleMs: DINGTALK_THROTTLE_MS,
  send: (t, m, ctx) =>
    postToRobot(signedUrl(t.address, t.secret), robotBody(m, t.keyword), ctx.timeoutMs, DINGTALK_CODES, (json) => ({
      code: typeof json.errcode === 'number' ? json.errcode : null,
      msg: typeof json.errmsg === 'string' ? json.errmsg : '',
    })),
};
