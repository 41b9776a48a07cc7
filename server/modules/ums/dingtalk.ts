/**
 * The DingTalk custom-robot protocol: request body per message type, the HMAC-SHA256 signature
 * computed fresh for every attempt, and the classification of DingTalk's answers. DingTalk answers
 * HTTP 200 even on failure, so success is errcode 0 and nothing else.
 */
import crypto from 'node:crypto';

export type Outcome = 'delivered' | 'permanent' | 'rate_limited' | 'transient';

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

export interface RobotMessage {
  type: 'text' | 'markdown' | 'link' | 'actionCard';
  title: string;
  content: string;
  extra?: { atMobiles?: string[]; isAtAll?: boolean; messageUrl?: string; picUrl?: string; singleURL?: string } | null;
}

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

export interface SendResult {
  outcome: Outcome;
  httpStatus: number | null;
  errcode: number | null;
  errmsg: string;
  durationMs: number;
  hint: string | null;
}

export function classify(
  httpStatus: number | null,
  errcode: number | null,
  errmsg: string,
): Omit<SendResult, 'durationMs'> {
  if (httpStatus === null)
    return { outcome: 'transient', httpStatus, errcode, errmsg, hint: '网络错误或超时，将自动重试' };
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
    const timeout = (err as Error).name === 'TimeoutError';
    return {
      ...classify(null, null, timeout ? `超时（${timeoutMs} ms）` : `网络错误：${(err as Error).message}`),
      durationMs: elapsed(),
    };
  }
  let errcode: number | null = null;
  let errmsg = '';
  try {
    const text = await res.text();
    const json = JSON.parse(text) as { errcode?: unknown; errmsg?: unknown };
    errcode = typeof json.errcode === 'number' ? json.errcode : null;
    errmsg = typeof json.errmsg === 'string' ? json.errmsg.slice(0, 500) : '';
  } catch {
    errmsg = `HTTP ${res.status}，应答不是 JSON`;
  }
  return { ...classify(res.status, errcode, errmsg), durationMs: elapsed() };
}
