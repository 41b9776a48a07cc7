/**
 * Error config of the Umi request plugin, in the Ant Design Pro style: a `success:false`
 * envelope becomes a thrown BizError, and the handler shows its errorMessage unless the
 * caller passed `skipErrorHandler` (then the caller shows the error itself).
 */
import type { AxiosResponse, ErrorInterceptor, RequestConfig, RequestOptions } from '@umijs/max';
import { message, notification } from 'antd';
import { ShowType } from '@/contract/endpoint';
import { SESSION_REQUIRED } from '@/requestDefaults';

interface EnvelopeLike {
  success?: boolean;
  data?: unknown;
  errorCode?: string;
  errorMessage?: string;
  showType?: number;
  /** 5xx answers: the request id to quote (also the X-Request-Id header). */
  requestId?: string;
}

export interface BizError extends Error {
  name: 'BizError';
  info: EnvelopeLike;
}

interface ErrorLike {
  name?: string;
  message?: string;
  info?: EnvelopeLike;
  response?: { status?: number; statusText?: string; data?: unknown; headers?: unknown };
  request?: unknown;
}

function envelopeOf(error: unknown): EnvelopeLike | undefined {
  const e = error as ErrorLike | undefined;
  if (e?.info) return e.info;
  const body = e?.response?.data;
  return body && typeof body === 'object' ? (body as EnvelopeLike) : undefined;
}

/** HTTP status of a failed request, if the server answered at all. */
export function statusOf(error: unknown): number | undefined {
  return (error as ErrorLike | undefined)?.response?.status;
}

/** The id of a failed request as the server named it (envelope or X-Request-Id header), if any. */
export function requestIdOf(error: unknown): string | undefined {
  const fromEnvelope = envelopeOf(error)?.requestId;
  if (typeof fromEnvelope === 'string' && fromEnvelope) return fromEnvelope;
  const headers = (error as ErrorLike | undefined)?.response?.headers as
    { get?: (name: string) => unknown; [name: string]: unknown } | undefined;
  const fromHeader = typeof headers?.get === 'function' ? headers.get('x-request-id') : headers?.['x-request-id'];
  return typeof fromHeader === 'string' && fromHeader ? fromHeader : undefined;
}

/** The Chinese message a user should read for any request failure. */
export function errorMessageOf(error: unknown): string {
  const envelope = envelopeOf(error);
  const status = statusOf(error);
  const requestId = status !== undefined && status >= 500 ? requestIdOf(error) : undefined;
  if (requestId) {
    // A server failure: what to quote when reporting it.
    const text =
      envelope?.errorMessage && envelope.errorCode !== 'INTERNAL' ? envelope.errorMessage : '服务器出错了，请稍后再试';
    return `${text}（请求编号 ${requestId}）`;
  }
  if (envelope?.errorMessage) return envelope.errorMessage;
  const e = error as ErrorLike | undefined;
  if (e?.response) return `请求失败（${e.response.status ?? ''} ${e.response.statusText ?? ''}）`.replace(' ）', '）');
  if (e?.request) return '网络异常，无法连接服务器';
  return e?.message || '请求失败，请稍后重试';
}

/** Field errors of a 400 answer: field -> messages. */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  const data = envelopeOf(error)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  const out: Record<string, string[]> = {};
  for (const [field, msgs] of Object.entries(data as Record<string, unknown>)) {
    if (Array.isArray(msgs)) out[field] = msgs.map(String);
  }
  return out;
}

/** A failed call whose answer says the session it relied on has ended. */
export function endsSession(error: unknown): boolean {
  const config = (error as { config?: Record<string, unknown> } | undefined)?.config;
  return statusOf(error) === 401 && config?.[SESSION_REQUIRED] === true;
}

/** A call refused for the caller's role: the roles may have changed since the user signed in. */
export function refusedForRole(error: unknown): boolean {
  const config = (error as { config?: Record<string, unknown> } | undefined)?.config;
  return statusOf(error) === 403 && config?.[SESSION_REQUIRED] === true && envelopeOf(error)?.errorCode === 'FORBIDDEN';
}

/**
 * The response interceptor that hands a call whose session ended to `onEnd` (the shell's reaction,
 * src/components/session.tsx, wired in src/app.tsx). Such a call never settles: the visitor is on
 * the way to the login page, so no page shows an error of its own or an empty list meanwhile. A call
 * refused for a role is also told to `onRefused` (who the user is now is asked again) and fails as usual.
 */
export function sessionEndInterceptor(
  onEnd: () => void,
  onRefused: () => void = () => undefined,
): [(response: AxiosResponse) => AxiosResponse, ErrorInterceptor] {
  const onRejected = (error: unknown): Promise<never> => {
    if (refusedForRole(error)) onRefused();
    if (!endsSession(error)) return Promise.reject(error);
    onEnd();
    return new Promise<never>(() => undefined);
  };
  return [(response) => response, onRejected as ErrorInterceptor];
}

export const errorConfig: RequestConfig = {
  errorConfig: {
    errorThrower: (res: EnvelopeLike) => {
      if (res && res.success === false) {
        const error = new Error(res.errorMessage || '请求失败') as BizError;
        error.name = 'BizError';
        error.info = res;
        throw error;
      }
    },
    errorHandler: (error: unknown, opts: RequestOptions) => {
      if (opts?.skipErrorHandler) throw error;
      const text = errorMessageOf(error);
      switch (envelopeOf(error)?.showType) {
        case ShowType.SILENT:
          break;
        case ShowType.WARN_MESSAGE:
          message.warning(text);
          break;
        case ShowType.NOTIFICATION:
          notification.error({ message: '请求失败', description: text });
          break;
        default:
          message.error(text);
      }
    },
  },
};
