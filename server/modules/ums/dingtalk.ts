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
  /** DingTalk's errmsg; without an answer from DingTalk, our Chinese description of what went wrong. */
  errmsg: string;
  durationMs: number;
  hint: string | null;
  /** The technical detail behind errmsg (error code and Node's message, or the body of a non-JSON answer). */
  detail: string | null;
  /** rate_limited: how long the service asked us to wait (Retry-After); else the kind's own pause. */
  retryAfterMs?: number | null;
}

/** A failure before DingTalk answered, in words a user reads, and the detail an operator needs. */
export interface TransportFailure {
  message: string;
  detail: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_NONAME', 'EAI_FAIL']);
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL']);
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const CONNECT_TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);
const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
const isTlsCode = (code: string) => TLS_CODES.has(code) || /^ERR_(TLS|SSL)_/.test(code) || code.includes('CERT');

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The deepest error of the cause chain that names a code (else the first cause): undici wraps the
 * socket's error in `cause`, and dual-stack connects wrap theirs in an AggregateError. */
function rootCause(err: unknown): ErrorLike {
  const top = (err ?? {}) as ErrorLike;
  let best = top;
  let e = top;
  for (let depth = 0; depth < 5; depth++) {
    const next = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
    if (!next || typeof next !== 'object') break;
    e = next as ErrorLike;
    if (typeof e.code === 'string' || best === top) best = e;
  }
  return best;
}

function seconds(ms: number): string {
  return Number.isInteger(ms / 1000) ? String(ms / 1000) : (ms / 1000).toFixed(1);
}

/**
 * Node's fetch rejects every transport failure with the same TypeError('fetch failed'): the reason
 * is in its `cause` chain. Users get a Chinese sentence per kind of failure; the code and Node's
 * message stay in `detail` for whoever has to debug the network. Neither carries the webhook URL.
 * `service` names who did not answer (钉钉, 企业微信, 飞书, 目标).
 */
export function describeFetchError(err: unknown, timeoutMs: number, service = '钉钉'): TransportFailure {
  const top = (err ?? {}) as ErrorLike;
  const cause = rootCause(err);
  const code = typeof cause.code === 'string' ? cause.code : '';
  const causeMessage = typeof cause.message === 'string' && cause.message ? cause.message : '';
  const topMessage = typeof top.message === 'string' ? top.message : String(err);
  const text = causeMessage || topMessage;
  // OpenSSL's messages end in a newline and name its source file: one line, bounded.
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const detail = (code && !oneLine.includes(code) ? `${code}: ${oneLine}` : oneLine).slice(0, 300);

  if (top.name === 'TimeoutError' || top.name === 'AbortError') {
    return { message: `请求超时（${seconds(timeoutMs)} 秒）：${service}服务器没有及时应答`, detail };
  }
  if (DNS_CODES.has(code)) return { message: `域名解析失败：找不到${service}服务器的地址`, detail };
  if (UNREACHABLE_CODES.has(code)) return { message: `网络错误：无法连接${service}服务器`, detail };
  if (CONNECT_TIMEOUT_CODES.has(code)) return { message: `网络错误：连接${service}服务器超时`, detail };
  if (DROPPED_CODES.has(code)) return { message: `网络错误：与${service}服务器的连接被中断`, detail };
  if (code && isTlsCode(code)) return { message: `安全连接失败：${service}服务器的证书无效或 TLS 握手失败`, detail };
  if (/redirect/i.test(causeMessage)) return { message: 'Webhook 地址发生了重定向，已拒绝发送', detail };
  return { message: `网络错误：无法连接${service}服务器`, detail };
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
