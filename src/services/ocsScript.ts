/**
 * Typed client of the OCS script side (src/contract/ocsConfig.ts): script info for the config and
 * download pages, and the config page's live test of a generated AnswererWrapper.
 */
import * as api from '@/contract/api/ocs';
import type { AnswerOf } from '@/contract/endpoint';
import { fillTemplate, type AnswererWrapper, type OcsSample } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';

export type OcsScriptInfoAnswer = AnswerOf<typeof api.scriptInfo>;

/** The script's version and changelog, and the URLs the config and download pages show. */
export const fetchOcsScriptInfo = (options?: RequestOptions) => call(api.scriptInfo, {}, options);

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
