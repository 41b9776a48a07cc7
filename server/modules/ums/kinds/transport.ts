/**
 * What every channel kind's attempt ends in, whatever the service: the outcome and its details
 * (SendResult), the message as the kinds receive it (RobotMessage), and a transport failure (no
 * answer at all) described in Chinese for the user, with the detail an operator needs.
 */

export type Outcome = 'delivered' | 'permanent' | 'rate_limited' | 'transient';

export interface RobotMessage {
  type: 'text' | 'markdown' | 'link' | 'actionCard';
  title: string;
  content: string;
  extra?: { atMobiles?: string[]; isAtAll?: boolean; messageUrl?: string; picUrl?: string; singleURL?: string } | null;
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

/** A failure before the service answered, in words a user reads, and the detail an operator needs. */
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
