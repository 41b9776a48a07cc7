/**
 * The config page's live test of a generated AnswererWrapper (src/contract/ocsConfig.ts): one sample
 * question sent the way the OCS script would send it.
 */
import { fillTemplate, type AnswererWrapper, type OcsSample } from '@/contract';

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
