/**
 * One call to an OpenAI-compatible chat completion endpoint, with its failures sorted into the few
 * kinds the OCS service treats differently (nothing is charged for any of them). Messages are
 * Chinese, meant for the end user, and fixed strings: provider error bodies can echo the key or
 * the endpoint, so none of their text is passed on. No logging here; the caller logs.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  RateLimitError,
} from 'openai';
import { guardedFetch, PrivateAddressError } from '../../../lib/outbound';

export interface AiModelConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxTokens: number | null;
  /** ADMIN_URL_ALLOWLIST: base URLs that may be on an inward address (server/lib/outbound.ts). */
  allowlist: readonly string[];
}

export type AiFailureKind = 'timeout' | 'rate_limited' | 'provider_error' | 'empty' | 'network';

export type CallModelResult =
  | { ok: true; text: string; latencyMs: number }
  | { ok: false; kind: AiFailureKind; message: string; status?: number; latencyMs: number };

const SYSTEM_MESSAGE = '你是一个答题助手，只输出题目的答案，不输出解释。';

function statusMessage(status: number): string {
  if (status === 401 || status === 403) return `AI 服务拒绝了 API 密钥（${status}），未扣费`;
  if (status === 404) return 'AI 服务地址或模型不存在（404），未扣费';
  if (status === 400 || status === 422) return `AI 服务拒绝了请求（${status}），请检查模型配置，未扣费`;
  if (status >= 500) return `AI 服务出错（${status}），未扣费`;
  return `AI 服务返回错误（${status}），未扣费`;
}

function parseHttpUrl(s: string): URL | null {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

export async function callModel(cfg: AiModelConfig, prompt: string): Promise<CallModelResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (kind: AiFailureKind, message: string, status?: number): CallModelResult =>
    status === undefined
      ? { ok: false, kind, message, latencyMs: elapsed() }
      : { ok: false, kind, message, status, latencyMs: elapsed() };

  // The SDK's own timeout stops at the response headers; this deadline also covers a body that
  // trickles in forever.
  if (cfg.apiKey.trim() === '') return fail('provider_error', '未配置 AI 服务的 API 密钥，未扣费');
  // The SDK would otherwise fall back to api.openai.com for an empty base URL.
  const url = parseHttpUrl(cfg.baseURL);
  if (!url) return fail('provider_error', 'AI 服务地址无效，未扣费');
  // fetch refuses URLs with credentials; say so instead of a vague connection failure.
  if (url.username || url.password) return fail('provider_error', 'AI 服务地址不能包含用户名或密码，未扣费');

  const timeoutMs = Math.max(1, Math.round(cfg.timeoutMs));
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    const client = new OpenAI({
      baseURL: cfg.baseURL,
      apiKey: cfg.apiKey,
      timeout: timeoutMs,
      maxRetries: 0,
      // Explicit nulls, so OPENAI_* variables in the server's environment (an admin key, an
      // organization) never reach a third-party endpoint.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      logLevel: 'off',
      // Refuses a base URL that is, or resolves to, an address inside the server's network.
      fetch: guardedFetch(cfg.allowlist),
    });
    const completion = await client.chat.completions.create(
      {
        model: cfg.model,
        messages: [
          { role: 'system', content: SYSTEM_MESSAGE },
          { role: 'user', content: prompt },
        ],
        temperature: 0,
        ...(cfg.maxTokens ? { max_tokens: cfg.maxTokens } : {}),
      },
      { signal: deadline.signal },
    );
    // A non-JSON 200 comes back from the SDK as a plain string.
    if (!completion || typeof completion !== 'object' || !Array.isArray(completion.choices)) {
      return fail('provider_error', 'AI 服务返回了无法识别的内容，未扣费');
    }
    const content = completion.choices[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') return fail('empty', 'AI 没有给出答案，未扣费');
    return { ok: true, text: content, latencyMs: elapsed() };
  } catch (err) {
    if (err instanceof APIConnectionTimeoutError || deadline.signal.aborted)
      return fail('timeout', 'AI 服务超时，未扣费');
    if (err instanceof RateLimitError) return fail('rate_limited', 'AI 服务繁忙（429），未扣费', 429);
    if (err instanceof APIUserAbortError) return fail('network', '与 AI 服务的连接中断，未扣费');
    if (err instanceof APIConnectionError && err.cause instanceof PrivateAddressError)
      return fail('provider_error', 'AI 服务地址指向内网、本机或链路本地地址，已拒绝，未扣费');
    if (err instanceof APIConnectionError) return fail('network', '无法连接 AI 服务，未扣费');
    if (err instanceof APIError && typeof err.status === 'number')
      return fail('provider_error', statusMessage(err.status), err.status);
    // Invalid JSON in a 200 answer, or a base URL the SDK cannot use.
    return fail('provider_error', 'AI 服务返回了无法识别的内容，未扣费');
  } finally {
    clearTimeout(timer);
  }
}
