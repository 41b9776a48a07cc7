/** Business errors thrown by services and routes; the error handler turns them into envelopes. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
    readonly data?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, data?: Record<string, string[]>) =>
  new HttpError(400, 'BAD_REQUEST', message, data);
export const unauthorized = (message = '请先登录') => new HttpError(401, 'UNAUTHORIZED', message);
export const forbidden = (message = '没有权限执行此操作') => new HttpError(403, 'FORBIDDEN', message);
export const notFound = (message = '资源不存在') => new HttpError(404, 'NOT_FOUND', message);
export const conflict = (message: string, data?: Record<string, string[]>) =>
  new HttpError(409, 'CONFLICT', message, data);
export const tooMany = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, 'TOO_MANY_REQUESTS', message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** A refusal of the caller's identity: 401 (who are you) or 403 (not allowed). */
export function isAuthError(err: unknown): err is HttpError {
  return err instanceof HttpError && (err.statusCode === 401 || err.statusCode === 403);
}

/** Validates input that Fastify could not (merged query + body): 400 with field errors like any other. */
export function parseOr400<T>(
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const data: Record<string, string[]> = {};
  for (const issue of r.error.issues) (data[issue.path.map(String).join('.') || '_'] ??= []).push(issue.message);
  const first = Object.values(data)[0]?.[0];
  throw new HttpError(400, 'VALIDATION_FAILED', first ? `输入有误：${first}` : '输入有误', data);
}
