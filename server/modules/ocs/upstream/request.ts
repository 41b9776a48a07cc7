/**
 * One call to an upstream bank, as an OCS AnswererWrapper describes it: the URL, headers and parameter
 * template with ${title}, ${type}, ${options} (and ${secret}, the stored token) filled in once each,
 * the parameters in the query string (GET) or the body (POST, JSON or form); the answer picked from the
 * JSON reply with a JSONPath (jsonpath-plus: no handler code is ever run). Replies are read up to
 * 256 KiB, and only a short excerpt is kept; the call is cut at its timeout. An address inside the
 * server's network is refused unless allow-listed, at every connection (server/lib/outbound.ts).
 */
import { JSONPath } from 'jsonpath-plus';
import { splitOcsAnswer } from '@contract';
import { plainText } from '../bank/normalize';
import { guardedFetch, PrivateAddressError } from '../../../lib/outbound';

export interface UpstreamSpec {
  url: string;
  method: 'get' | 'post';
  bodyType: 'json' | 'form';
  headers: Record<string, string>;
  data: Record<string, string>;
  answerPath: string;
  secret: string | null;
  timeoutMs: number;
  /** ADMIN_URL_ALLOWLIST: the upstream may be on an inward address. */
  allowlist: readonly string[];
}

export interface UpstreamQuestion {
  title: string;
  type: string;
  /** The caller's options, one a line, as OCS sends ${options}. */
  options: string;
}

export type CallOutcome =
  | { kind: 'answered'; pieces: string[]; status: number; latencyMs: number; body: string }
  | { kind: 'not_found'; status: number; latencyMs: number; body: string }
  | { kind: 'failed'; error: string; status: number | null; latencyMs: number; body: string | null };

const MAX_BODY = 256 * 1024;
/**
 * How much of a reply a call keeps to show (the test, the last error): enough to find the answer path,
 * not a page of whatever the URL serves.
 */
export const EXCERPT_CHARS = 200;

const excerpt = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_CHARS);
const VARIABLE = /\$\{(title|type|options|secret)\}/g;

/** Fills the template once (a question containing "${type}" is sent as it is). */
export function fill(
  value: string,
  q: UpstreamQuestion,
  secret: string | null,
  encode?: (s: string) => string,
): string {
  return value.replace(VARIABLE, (_m, name: string) => {
    const v = name === 'secret' ? (secret ?? '') : q[name as keyof UpstreamQuestion];
    return encode ? encode(v) : v;
  });
}

/** A Chinese message when the JSONPath cannot be used: it starts at $, its brackets close, it parses. */
export function checkAnswerPath(path: string): string | null {
  const bad = '答案路径不是有效的 JSONPath（例如 $.data.answer）';
  if (!path.startsWith('$')) return bad;
  let depth = 0;
  let quote: string | null = null;
  for (const ch of path) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth--;
    if (depth < 0) return bad;
  }
  if (depth !== 0 || quote) return bad;
  try {
    JSONPath({ path, json: { data: { answer: '', list: [{}] } }, wrap: true, eval: 'safe' });
    return null;
  } catch {
    return bad;
  }
}

/**
 * The answer at `path`, in the pieces the OCS script would read from it (an upstream bank answers the
 * script): an array's elements, or a string split as the script splits it (src/contract/ocsAnswer.ts),
 * each piece's markup turned into text; null when there is none.
 */
export function pickAnswer(json: unknown, path: string): string[] | null {
  const found = JSONPath({ path, json: json as object, wrap: true, eval: 'safe' }) as unknown[];
  const first = found.find((v) => v !== null && v !== undefined && v !== '');
  const text = (v: unknown): string | null =>
    typeof v === 'string' ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
  const raw = Array.isArray(first)
    ? first.map(text).filter((s): s is string => !!s)
    : splitOcsAnswer(text(first) ?? '');
  const pieces = raw.map((p) => plainText(p).trim()).filter((p) => p !== '');
  return pieces.length ? pieces : null;
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= MAX_BODY) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8');
}

/** One call: answered (the raw answer text), not found (a reply without an answer), or failed. */
export async function callUpstream(spec: UpstreamSpec, q: UpstreamQuestion): Promise<CallOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), spec.timeoutMs);
  let status: number | null = null;
  try {
    let url = fill(spec.url, q, spec.secret, encodeURIComponent);
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
    for (const [k, v] of Object.entries(spec.headers)) headers[k] = fill(v, q, spec.secret);
    const data = Object.fromEntries(Object.entries(spec.data).map(([k, v]) => [k, fill(v, q, spec.secret)]));
    let body: string | undefined;
    if (spec.method === 'get') {
      const u = new URL(url);
      for (const [k, v] of Object.entries(data)) u.searchParams.set(k, v);
      url = u.toString();
    } else if (spec.bodyType === 'form') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(data).toString();
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(data);
    }
    const res = await guardedFetch(spec.allowlist)(url, {
      method: spec.method.toUpperCase(),
      headers,
      body,
      signal: controller.signal,
      redirect: 'follow',
    });
    status = res.status;
    const text = await readCapped(res);
    const head = excerpt(text);
    if (!res.ok) return { kind: 'failed', error: `HTTP ${res.status}`, status, latencyMs: elapsed(), body: head };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { kind: 'failed', error: '返回的不是 JSON', status, latencyMs: elapsed(), body: head };
    }
    const pieces = pickAnswer(json, spec.answerPath);
    return pieces
      ? { kind: 'answered', pieces, status, latencyMs: elapsed(), body: head }
      : { kind: 'not_found', status, latencyMs: elapsed(), body: head };
  } catch (err) {
    const aborted = controller.signal.aborted;
    return {
      kind: 'failed',
      error: aborted
        ? `超时（${spec.timeoutMs} 毫秒）`
        : err instanceof PrivateAddressError
          ? `接口地址指向内网、本机或链路本地地址，已拒绝（管理员可将其加入 ADMIN_URL_ALLOWLIST）`
          : `网络错误：${(err as Error).message}`.slice(0, 300),
      status,
      latencyMs: elapsed(),
      body: null,
    };
  } finally {
    clearTimeout(timer);
  }
}
