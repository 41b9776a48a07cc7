/**
 * The generic webhook: any http(s) URL, a method, request headers (stored encrypted) and a body
 * template with ${title} ${content} ${time} ${messageId} (escaped for JSON, form or URL as the
 * Content-Type asks), success decided by the status code and an optional JSON-path condition
 * (jsonpath-plus, its safe evaluator). A user-given URL must not reach the server's own network: unless
 * allow-listed (UMS_WEBHOOK_ALLOWLIST), loopback, private and link-local addresses, and the addresses of
 * the server's own network interfaces, are refused when the channel is saved and again at every
 * connection (the DNS answer itself is checked, so a name that later resolves inward is refused too).
 * Nor may it point at the portal itself (PUBLIC_URL's host, or the host a request reached it by),
 * allow-listed or not: the portal would post into its own API with the user's words. What a target
 * answers is never shown back (only its status): the user is not given a way to read other servers.
 */
import http from 'node:http';
import https from 'node:https';
import { JSONPath } from 'jsonpath-plus';
import { DEFAULT_SUCCESS_STATUS, DEFAULT_WEBHOOK_TEMPLATE, type WebhookHeader } from '../../../../src/contract';
import { badRequest } from '../../../errors';
import { maskSecret } from '../../../lib/secretbox';
import { describeFetchError, type SendResult } from './transport';
import {
  allowListed,
  guardedLookup,
  isOwnInterfaceAddress,
  isPrivateAddress,
  ownInterfaceAddresses,
  PrivateAddressError,
} from '../../../lib/outbound';
import { retryAfterMs } from './http';
import type { ChannelAdapter, OutgoingMessage, WebhookConfig } from './types';

const SERVICE = '目标';
/** Answers longer than this are cut: only the start is kept for the timeline and the success check. */
const MAX_ANSWER_BYTES = 64 * 1024;
const VARIABLE = /\$\{(title|content|time|messageId)\}/g;

// Addresses the server must not be made to call: one checker for every URL someone typed, and the
// server's own interfaces (a public one too), which are the portal itself.
export { isPrivateAddress, PrivateAddressError };
const refusedAddress = (address: string) => isPrivateAddress(address) || isOwnInterfaceAddress(address);

/** The URL is the portal's own (PUBLIC_URL's host, or the host a request reached the portal by). */
export class OwnAddressError extends Error {
  readonly code = 'EOWN';
}

const bareHost = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * Does the URL point at the portal itself? `ownHosts`: host names it is reached by, any port
 * (`portal.example.edu`), or one port of a host (`127.0.0.1:8000`, `[::1]:8000`).
 */
export function isOwnHost(url: URL, ownHosts: string[]): boolean {
  const host = bareHost(url.hostname);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return ownHosts.some((own) => {
    const m = /^\[(.+)\]:(\d+)$/.exec(own) ?? /^([^:]+):(\d+)$/.exec(own);
    return m ? bareHost(m[1]) === host && Number(m[2]) === port : bareHost(own) === host;
  });
}

/**
 * The portal's own addresses: PUBLIC_URL's host, and once it listens, its port on loopback, on
 * `localhost`, on the address it was told to listen on and on each of the server's interfaces. A
 * webhook there is refused even when allow-listed (an allow-list entry for a loopback gateway would
 * otherwise let a user make the portal post into its own API).
 */
export function ownHostsOf(publicUrl: string | undefined, listenHost: string, listening: number | null): string[] {
  const hosts = publicUrl ? [new URL(publicUrl).hostname] : [];
  if (listening === null) return hosts;
  const at = ['localhost', '127.0.0.1', '::1', listenHost, ...ownInterfaceAddresses()];
  return [...hosts, ...at.map((h) => (h.includes(':') ? `[${h}]:${listening}` : `${h}:${listening}`))];
}

// ---------- templates ----------

export interface TemplateVars {
  title: string;
  content: string;
  time: string;
  messageId: string;
}

export function varsOf(m: OutgoingMessage): TemplateVars {
  return { title: m.title, content: m.content, time: m.createdAt.toISOString(), messageId: String(m.id) };
}

export function renderTemplate(template: string, vars: TemplateVars, escape: (s: string) => string): string {
  return template.replace(VARIABLE, (_m, name: keyof TemplateVars) => escape(vars[name]));
}

const jsonEscape = (s: string) => JSON.stringify(s).slice(1, -1);

function contentTypeOf(headers: WebhookHeader[]): string | null {
  return headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? null;
}

/** How a body template's variables are escaped: for the JSON, form or plain text it produces. */
function bodyEscape(contentType: string): (s: string) => string {
  if (/json/i.test(contentType)) return jsonEscape;
  if (/x-www-form-urlencoded/i.test(contentType)) return encodeURIComponent;
  return (s) => s;
}

const SAMPLE: TemplateVars = {
  title: '标题 "引号" \\ 反斜杠',
  content: '第一行\n第二行 & < > "',
  time: '2026-01-01T00:00:00.000Z',
  messageId: '1',
};

/** Parses `200-299,304` into ranges; the contract has checked the format. */
export function statusRanges(spec: string): [number, number][] {
  return spec.split(',').map((part) => {
    const [a, b] = part.trim().split('-').map(Number);
    return [a, b ?? a];
  });
}

// ---------- checking a channel's settings ----------

function parseUrl(raw: string): URL {
  try {
    const url = new URL(renderTemplate(raw, SAMPLE, encodeURIComponent));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    return url;
  } catch {
    throw badRequest('Webhook 地址应为 http:// 或 https:// 开头的完整地址', {
      webhook: ['Webhook 地址应为 http:// 或 https:// 开头的完整地址'],
    });
  }
}

export function validateWebhookUrl(raw: string, allowlist: string[], ownHosts: string[] = []): string {
  const url = parseUrl(raw);
  if (isOwnHost(url, ownHosts)) {
    throw badRequest('不能推送到门户自己的地址', { webhook: ['不能推送到门户自己的地址'] });
  }
  if (allowListed(raw, allowlist)) return raw;
  const host = bareHost(url.hostname);
  if (host === 'localhost' || host.endsWith('.localhost') || refusedAddress(host)) {
    throw badRequest('不能推送到内网或本机地址（管理员可将其加入 UMS_WEBHOOK_ALLOWLIST）', {
      webhook: ['不能推送到内网或本机地址'],
    });
  }
  return raw;
}

/** The settings as stored, defaults filled in; 400 for a template or path that cannot work. */
export function webhookConfig(
  input: Partial<WebhookConfig> & { bodyTemplate?: string },
  headers: WebhookHeader[],
  previous?: WebhookConfig,
): WebhookConfig {
  const merged: WebhookConfig = {
    method: input.method ?? previous?.method ?? 'POST',
    bodyTemplate: input.bodyTemplate ?? previous?.bodyTemplate ?? DEFAULT_WEBHOOK_TEMPLATE,
    successStatus: input.successStatus || previous?.successStatus || DEFAULT_SUCCESS_STATUS,
    successPath: input.successPath !== undefined ? input.successPath || null : (previous?.successPath ?? null),
    successValue: input.successValue !== undefined ? input.successValue || null : (previous?.successValue ?? null),
    perMinute: input.perMinute ?? previous?.perMinute ?? 60,
  };
  const type = contentTypeOf(headers) ?? 'application/json';
  if (merged.method !== 'GET' && /json/i.test(type) && merged.bodyTemplate.trim()) {
    try {
      JSON.parse(renderTemplate(merged.bodyTemplate, SAMPLE, jsonEscape));
    } catch (err) {
      const why = (err as Error).message.slice(0, 120);
      throw badRequest(`请求体模板填入变量后不是合法的 JSON：${why}`, {
        bodyTemplate: ['填入变量后不是合法的 JSON（变量应放在引号内，例如 "${content}"）'],
      });
    }
  }
  if (merged.successValue && !merged.successPath) {
    throw badRequest('填写期望值时请同时填写 JSON 路径', { successPath: ['请填写 JSON 路径'] });
  }
  if (merged.successPath) {
    try {
      JSONPath({ path: merged.successPath, json: { probe: [1] }, eval: 'safe', wrap: true });
    } catch {
      throw badRequest('JSON 路径无法解析', { successPath: ['JSON 路径无法解析，例如 $.code 或 $.data.ok'] });
    }
  }
  return merged;
}

/** Path segments and query values that look like credentials are masked, and so is a password. */
export function maskWebhookUrl(raw: string): string {
  const url = parseUrl(raw);
  const masked = new URL(url.toString());
  if (masked.password) masked.password = '…';
  masked.pathname = masked.pathname
    .split('/')
    .map((seg) => (/^[A-Za-z0-9_\-.~%]{16,}$/.test(seg) ? maskSecret(decodeURIComponent(seg)) : seg))
    .join('/');
  for (const [key, value] of [...masked.searchParams]) masked.searchParams.set(key, maskSecret(value));
  return decodeURIComponent(masked.toString());
}

export function maskHeaders(headers: WebhookHeader[]): { name: string; valueMasked: string }[] {
  return headers.map((h) => ({ name: h.name, valueMasked: maskSecret(h.value) }));
}

// ---------- sending ----------

export interface Answer {
  status: number;
  statusText: string;
  retryAfter: string | null;
  text: string;
}

/**
 * One HTTP request; with `guard`, an address that is (or resolves to) loopback, private or link-local,
 * or the server's own, is refused (PrivateAddressError) before anything is sent; a URL on one of
 * `ownHosts` always is (OwnAddressError). Also used for delivery callbacks.
 */
export function requestOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | null,
  timeoutMs: number,
  guard: boolean,
  ownHosts: string[] = [],
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const host = bareHost(url.hostname);
    if (isOwnHost(url, ownHosts)) {
      reject(new OwnAddressError(`${host} is the portal's own host`));
      return;
    }
    // A literal IP is never looked up: check it here.
    if (guard && refusedAddress(host)) {
      reject(new PrivateAddressError(`${host} is a private address`));
      return;
    }
    const req = mod.request(url, {
      method,
      headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      ...(guard ? { lookup: guardedLookup } : {}),
    });
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`timeout: no answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
      req.destroy(err);
    }, timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const retry = res.headers['retry-after'];
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          retryAfter: typeof retry === 'string' ? retry : null,
          text: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8'),
        });
      });
    });
    req.end(body ?? undefined);
  });
}

/** Does the answer meet the JSON-path condition? The reason when it does not. */
export function checkCondition(cfg: WebhookConfig, text: string): string | null {
  if (!cfg.successPath) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return `应答不是 JSON，无法检查 ${cfg.successPath}`;
  }
  let found: unknown[];
  try {
    found = JSONPath({ path: cfg.successPath, json: json as object, eval: 'safe', wrap: true }) as unknown[];
  } catch {
    return `无法在应答中求值 ${cfg.successPath}`;
  }
  const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  // What the answer holds is not shown back: only whether it met the condition.
  if (found.length === 0) return `应答中没有 ${cfg.successPath}`;
  if (cfg.successValue !== null) {
    if (found.some((v) => shown(v) === cfg.successValue)) return null;
    return `${cfg.successPath} 的值不是 ${cfg.successValue}`;
  }
  return found.some(Boolean) ? null : `${cfg.successPath} 的值为空或为假`;
}

export function classifyAnswer(cfg: WebhookConfig, a: Answer): Omit<SendResult, 'durationMs'> {
  // The status only: the body of an answer from a server the user chose is not echoed back to them.
  const base = { httpStatus: a.status, errcode: null, errmsg: `HTTP ${a.status} ${a.statusText}`.trim() };
  const ok = statusRanges(cfg.successStatus).some(([lo, hi]) => a.status >= lo && a.status <= hi);
  if (ok) {
    const unmet = checkCondition(cfg, a.text);
    if (!unmet) return { ...base, outcome: 'delivered', hint: null, detail: null };
    return { ...base, outcome: 'permanent', hint: `应答不满足成功条件：${unmet}`, detail: null };
  }
  if (a.status === 429) {
    return {
      ...base,
      outcome: 'rate_limited',
      hint: '目标限流（HTTP 429），稍后自动继续发送',
      detail: null,
      retryAfterMs: retryAfterMs(a.retryAfter),
    };
  }
  if (a.status === 408 || a.status === 425 || a.status >= 500) {
    return { ...base, outcome: 'transient', hint: `目标暂时不可用（HTTP ${a.status}），将自动重试`, detail: null };
  }
  if (a.status >= 300 && a.status < 400) {
    return { ...base, outcome: 'permanent', hint: `目标返回了重定向（HTTP ${a.status}），不会跟随`, detail: null };
  }
  return { ...base, outcome: 'permanent', hint: `目标返回 HTTP ${a.status}`, detail: null };
}

export async function sendWebhook(
  address: string,
  cfg: WebhookConfig,
  headers: WebhookHeader[],
  m: OutgoingMessage,
  timeoutMs: number,
  allowlist: string[],
  ownHosts: string[],
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const vars = varsOf(m);
  const type = contentTypeOf(headers) ?? 'application/json; charset=utf-8';
  const url = new URL(renderTemplate(address, vars, encodeURIComponent));
  const hasBody = cfg.method !== 'GET';
  const body = hasBody ? Buffer.from(renderTemplate(cfg.bodyTemplate, vars, bodyEscape(type)), 'utf8') : null;
  const sent: Record<string, string> = { 'user-agent': 'portal-ums', ...(hasBody ? { 'content-type': type } : {}) };
  for (const h of headers) sent[h.name.toLowerCase()] = h.value;
  try {
    const answer = await requestOnce(
      url,
      cfg.method,
      sent,
      body,
      timeoutMs,
      !allowListed(address, allowlist),
      ownHosts,
    );
    return { ...classifyAnswer(cfg, answer), durationMs: elapsed() };
  } catch (err) {
    if (err instanceof OwnAddressError) {
      return {
        outcome: 'permanent',
        httpStatus: null,
        errcode: null,
        errmsg: '目标是门户自己的地址，已拒绝发送',
        hint: '不能推送到门户自己的地址：请改用其他接收地址',
        detail: null,
        durationMs: elapsed(),
      };
    }
    if (err instanceof PrivateAddressError) {
      return {
        outcome: 'permanent',
        httpStatus: null,
        errcode: null,
        errmsg: '目标地址解析到内网或本机地址，已拒绝发送',
        hint: '管理员可将该地址加入 UMS_WEBHOOK_ALLOWLIST',
        detail: err.message,
        durationMs: elapsed(),
      };
    }
    const failure = describeFetchError(err, timeoutMs, SERVICE);
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
}

export const webhook: ChannelAdapter = {
  kind: 'webhook',
  address: (raw, ctx) => validateWebhookUrl(raw, ctx.allowlist, ctx.ownHosts),
  mask: maskWebhookUrl,
  paceKey: (t) => `channel:${t.id}`,
  windows: (t) => (t.webhook && t.webhook.perMinute > 0 ? [{ ms: 60_000, max: t.webhook.perMinute }] : []),
  throttleMs: 60_000,
  send: (t, m, ctx) => sendWebhook(t.address, t.webhook!, t.headers, m, ctx.timeoutMs, ctx.allowlist, ctx.ownHosts),
};
