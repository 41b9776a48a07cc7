/**
 * Posting a JSON body to a robot (DingTalk, WeCom, Feishu) and classifying its answer by the service's
 * own code: robots answer HTTP 200 even on failure, so success is code 0 and nothing else. Failures before an answer are described per kind in Chinese (describeFetchError).
 */
import { sha256 } from '../../../lib/tokens';
import { describeFetchError, type SendResult } from './transport';

/** A robot service's documented codes. */
export interface RobotCodes {
  /** Who answered, in the user's words: 钉钉, 企业微信, 飞书. */
  service: string;
  permanent: Record<number, string>;
  rateLimited: Record<number, string>;
  /** Codes that mean "busy, try again". */
  transient: Record<number, string>;
}

/** Retry-After in seconds or as an HTTP date, as milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function classifyRobot(
  httpStatus: number,
  code: number | null,
  msg: string,
  codes: RobotCodes,
): Omit<SendResult, 'durationMs' | 'detail'> {
  const base = { httpStatus, errcode: code, errmsg: msg };
  if (httpStatus >= 500) {
    return { ...base, outcome: 'transient', hint: `${codes.service}服务暂时不可用，将自动重试` };
  }
  if (httpStatus === 429) {
    return { ...base, outcome: 'rate_limited', hint: `${codes.service}限流（HTTP 429），稍后自动继续发送` };
  }
  if (code === 0 && httpStatus < 300) return { ...base, outcome: 'delivered', hint: null };
  if (code !== null && codes.rateLimited[code])
    return { ...base, outcome: 'rate_limited', hint: codes.rateLimited[code] };
  if (code !== null && codes.transient[code]) return { ...base, outcome: 'transient', hint: codes.transient[code] };
  if (code !== null && codes.permanent[code]) return { ...base, outcome: 'permanent', hint: codes.permanent[code] };
  if (httpStatus >= 400) return { ...base, outcome: 'permanent', hint: `${codes.service}返回 HTTP ${httpStatus}` };
  // A code we do not know: do not hammer the robot with retries.
  return { ...base, outcome: 'permanent', hint: code === null ? `${codes.service}返回了无法识别的应答` : null };
}

/**
 * One POST of a JSON body; `read` takes the service's code and message out of its JSON answer.
 * Never follows redirects; the webhook URL appears in no message.
 */
export async function postToRobot(
  url: string,
  body: unknown,
  timeoutMs: number,
  codes: RobotCodes,
  read: (json: Record<string, unknown>) => { code: number | null; msg: string },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json;charset=utf-8' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    const failure = describeFetchError(err, timeoutMs, codes.service);
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
  let code: number | null = null;
  let msg = '';
  let detail: string | null = null;
  let text = '';
  try {
    text = await res.text();
    const json = JSON.parse(text) as unknown;
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('not an object');
    ({ code, msg } = read(json as Record<string, unknown>));
    msg = msg.slice(0, 500);
  } catch {
    msg =
      res.status >= 500
        ? `${codes.service}服务器出错（HTTP ${res.status}）`
        : `${codes.service}的应答不是 JSON（HTTP ${res.status}）`;
    const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    detail = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}${snippet ? `：${snippet}` : ''}`;
  }
  const result = classifyRobot(res.status, code, msg, codes);
  return {
    ...result,
    detail,
    durationMs: elapsed(),
    retryAfterMs: result.outcome === 'rate_limited' ? retryAfterMs(res.headers.get('retry-after')) : null,
  };
}

/** Cuts UTF-8 text to at most `maxBytes`, at a character boundary, marking the cut. */
export function truncateBytes(text: string, maxBytes: number, mark = '\n\n…（内容过长，已截断）'): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const room = maxBytes - Buffer.byteLength(mark, 'utf8');
  let out = '';
  let used = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (used + n > room) break;
    out += ch;
    used += n;
  }
  return out + mark;
}

/** The robot's keyword security rejects messages without the keyword: make sure it is there. */
export function withKeyword(text: string, keyword: string | null): string {
  return keyword && !text.includes(keyword) ? `${text}\n\n${keyword}` : text;
}

/**
 * A robot's pace key: its limit is the robot's (DingTalk, WeCom, Feishu count per robot), whichever
 * channels, of whichever users, post to it. The webhook URL is the robot; it is stored encrypted, so the
 * key is a hash of it, written one way (no fragment, query parameters in order).
 */
export function robotPaceKey(address: string): string {
  const url = new URL(address);
  url.hash = '';
  url.searchParams.sort();
  return `robot:${sha256(url.toString()).slice(0, 16)}`;
}

/** An allow-listed base URL (UMS_WEBHOOK_ALLOWLIST) covers this one. */
export { allowListed } from '../../../lib/outbound';
