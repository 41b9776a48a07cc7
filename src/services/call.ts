/**
 * The one way the UI calls the API: `call(endpoint, input)` with a descriptor from src/contract/api/.
 * Method and path come from the descriptor, the input and answer types from its schemas, and the
 * request goes through Umi's request plugin (envelopes, error display: src/requestErrorConfig.ts).
 */
import type { AnswerOf, Endpoint, InputOf } from '@/contract/endpoint';
import { pathOf } from '@/contract/endpoint';
import { request, type RequestOptions } from '@umijs/max';
import { SESSION_REQUIRED } from '@/requestDefaults';

type Input = { params?: Record<string, unknown>; query?: object; body?: unknown };

/** The input argument is optional where the endpoint takes none. */
type Args<E> = keyof InputOf<E> extends never
  ? [input?: Record<string, never>, options?: RequestOptions]
  : {} extends InputOf<E>
    ? [input?: InputOf<E>, options?: RequestOptions]
    : [input: InputOf<E>, options?: RequestOptions];

const SENDS_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function call<E extends Endpoint>(endpoint: E, ...args: Args<E>): Promise<AnswerOf<E>> {
  const [input = {}, options] = args as [Input | undefined, RequestOptions | undefined];
  const { params, query, body } = input;
  return request<AnswerOf<E>>(pathOf(endpoint, params), {
    method: endpoint.method,
    [SESSION_REQUIRED]: endpoint.access !== 'public',
    ...(query ? { params: query } : {}),
    // A mutating call without a body still sends `{}`: the server wants JSON on every browser write.
    ...(body !== undefined ? { data: body } : SENDS_BODY.has(endpoint.method) ? { data: {} } : {}),
    ...options,
  });
}

/**
 * Uploads one file as multipart field `file` to an endpoint declared `multipart: true`, reporting
 * progress in percent. Imports parse for a while after the bytes arrive, hence the long default timeout.
 */
export function upload<E extends Endpoint & { multipart?: true }>(
  endpoint: E,
  file: Blob,
  onProgress?: (percent: number) => void,
  options?: RequestOptions,
): Promise<AnswerOf<E>> {
  const form = new FormData();
  form.append('file', file);
  return request<AnswerOf<E>>(pathOf(endpoint), {
    method: endpoint.method,
    [SESSION_REQUIRED]: endpoint.access !== 'public',
    data: form,
    timeout: 5 * 60 * 1000,
    onUploadProgress: (e: { loaded: number; total?: number }) => {
      if (onProgress && e.total) onProgress(Math.round((e.loaded / e.total) * 100));
    },
    ...options,
  });
}
