/**
 * What every mock file needs: the request/response shapes Umi's mock server passes, the error envelope
 * and contract-schema validation with field errors. Not a mock itself (.umirc.ts excludes mock/_lib).
 */
import type { z } from 'zod';
import type { ErrorEnvelope } from '../../src/contract';
import { ShowType } from '../../src/contract/endpoint';

export interface Req {
  body?: any;
  query?: Record<string, string | undefined>;
  params?: Record<string, string>;
  headers?: Record<string, string | undefined>;
}

export interface Res {
  status(code: number): Res;
  setHeader(name: string, value: string): void;
  json(body: unknown): void;
  /** Non-JSON answers (CSV and Excel downloads). */
  send(body: string | Buffer): void;
}

export function fail(
  res: Res,
  status: number,
  errorCode: string,
  errorMessage: string,
  data?: Record<string, string[]>,
): void {
  const body: ErrorEnvelope = {
    success: false,
    errorCode,
    errorMessage,
    showType: ShowType.ERROR_MESSAGE,
    ...(data ? { data } : {}),
  };
  res.status(status).json(body);
}

/** Parses a body with a contract schema; answers 400 with field errors when it does not fit. */
export function parse<S extends z.ZodTypeAny>(schema: S, body: unknown, res: Res): z.output<S> | undefined {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const fields: Record<string, string[]> = {};
  for (const issue of r.error.issues) (fields[String(issue.path[0] ?? '_')] ??= []).push(issue.message);
  fail(res, 400, 'BAD_REQUEST', '请求参数有误', fields);
  return undefined;
}
