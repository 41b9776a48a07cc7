/**
 * Typed client of the OCS script side (src/contract/ocsConfig.ts): script info for the config and
 * download pages, and the config page's live test of a generated AnswererWrapper.
 */
import { fillTemplate, type AnswererWrapper, type OcsSample, type OcsScriptInfoResponse } from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type OcsScriptInfoAnswer = z.infer<typeof OcsScriptInfoResponse>;

/** GET /api/ocs/script-info */
export function fetchOcsScriptInfo(options?: RequestOptions) {
  return request<OcsScriptInfoAnswer>('/api/ocs/script-info', { method: 'GET', ...options });
}

export interface WrapperTestResult {
  status: number;
  /** Parsed JSON when the body is JSON, else the raw text. */
  body: unknown;
}

/**
 * Sends one sample question exactly as OCS would with this wrapper: same URL and method, the data
 * template filled in, in the query string for GET and as JSON for POST. Plain fetch on purpose: the
 * request plugin would add its own handling, and the point is to see what the script sees.
 */
export async function testAnswererWrapper(wrapper: AnswererWrapper, sample: OcsSample): Promise<WrapperTestResult> {
  const data = fillTemplate(wrapper.data ?? {}, sample);
  const headers: Record<string, string> = { ...(wrapper.headers ?? {}) };
  let url = wrapper.url;
  let body: string | undefined;
  if (wrapper.method === 'get') {
    url += (url.includes('?') ? '&' : '?') + new URLSearchParams(data).toString();
  } else {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(data);
  }
  const res = await fetch(url, { method: wrapper.method.toUpperCase(), headers, body, credentials: 'omit' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: show the raw text, as the script would fail on it.
  }
  return { status: res.status, body: parsed };
}
