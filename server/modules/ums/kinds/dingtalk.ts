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
import { allowListed, robotPaceKey } from './http';
import { describeFetchError, type RobotMessage, type SendResult } from './transport';
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
export const RATE_LIMIT_ERRCODES = new Set([130101, 410100, 660026]);

/** The robot's keyword security rejects messages without the keyword: make sure it is there. */
function withKeyword(text: string, keyword: string | null): string {
  return keyword && !text.includes(keyword) ? `${text}\n\n${keyword}` : text;
}

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

export function classify(
  httpStatus: number,
  errcode: number | null,
  errmsg: string,
): Omit<SendResult, 'durationMs' | 'detail'> {
  if (httpStatus >= 500)
    return { outcome: 'transient', httpStatus, errcode, errmsg, hint: '钉钉服务暂时不可用，将自动重试' };
  if (errcode === 0) return { outcome: 'delivered', httpStatus, errcode, errmsg, hint: null };
  if (errcode !== null && RATE_LIMIT_ERRCODES.has(errcode)) {
    return { outcome: 'rate_limited', httpStatus, errcode, errmsg, hint: '机器人被钉钉限流，10 分钟后自动继续发送' };
  }
  if (errcode === -1) return { outcome: 'transient', httpStatus, errcode, errmsg, hint: '钉钉系统繁忙，将自动重试' };
  if (errcode !== null && PERMANENT_ERRCODES[errcode]) {
    return { outcome: 'permanent', httpStatus, errcode, errmsg, hint: PERMANENT_ERRCODES[errcode] };
  }
  if (httpStatus >= 400)
    return { outcome: 'permanent', httpStatus, errcode, errmsg, hint: `钉钉返回 HTTP ${httpStatus}` };
  // An errcode we do not know: do not hammer the robot with retries.
  return {
    outcome: 'permanent',
    httpStatus,
    errcode,
    errmsg,
    hint: errcode === null ? '钉钉返回了无法识别的应答' : null,
  };
}

export async function sendToRobot(
  webhook: string,
  secret: string | null,
  body: Record<string, unknown>,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let res: Response;
  try {
    res = await fetch(signedUrl(webhook, secret), {
      method: 'POST',
      headers: { 'content-type': 'application/json;charset=utf-8' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    // No answer at all: always worth another try. The hint stays empty, errmsg says what happened.
    const failure = describeFetchError(err, timeoutMs);
    return {
      outcome: 'transient',
      httpStatus: null,
      errcode: null,
      errmsg: failure.message,
      hint: null,
      detail: failure.detail,
      durationMs: elapsed(),
    };
  }
  let errcode: number | null = null;
  let errmsg = '';
  let detail: string | null = null;
  let text = '';
  try {
    text = await res.text();
    const json = JSON.parse(text) as { errcode?: unknown; errmsg?: unknown };
    errcode = typeof json.errcode === 'number' ? json.errcode : null;
    errmsg = typeof json.errmsg === 'string' ? json.errmsg.slice(0, 500) : '';
  } catch {
    // A proxy's or load balancer's error page: describe it, keep its first words as the detail.
    errmsg = res.status >= 500 ? `钉钉服务器出错（HTTP ${res.status}）` : `钉钉的应答不是 JSON（HTTP ${res.status}）`;
    const body = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    detail = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${body ? `：${body}` : ''}`;
  }
  return { ...classify(res.status, errcode, errmsg), detail, durationMs: elapsed() };
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
  send: (t, m, ctx) => sendToRobot(t.address, t.secret, robotBody(m, t.keyword), ctx.timeoutMs),
};
