/**
 * Generic JSON fetch for calls outside the Umi request plugin (public status probes,
 * file downloads). A non-OK HTTP status raises a FetchError carrying the status text
 * (named apart from the server's HTTP error class in server/errors.ts).
 */
export class FetchError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;

  constructor(status: number, statusText: string, body: unknown) {
    super(`${status} ${statusText}`.trim());
    this.name = 'FetchError';
    this.status = status;
    this.statusText = statusText;
    this.body = body;
  }
}

export interface FetchJsonInit extends Omit<RequestInit, 'body'> {
  /** Sent as a JSON body with Content-Type application/json. */
  json?: unknown;
}

export async function fetchJson<T>(url: string, init: FetchJsonInit = {}): Promise<T> {
  const { json, headers: given, ...rest } = init;
  const headers = new Headers(given);
  headers.set('Accept', 'application/json');
  let body: string | undefined;
  if (json !== undefined) {
    body = JSON.stringify(json);
    headers.set('Content-Type', 'application/json');
  }
  const res = await fetch(url, { credentials: 'same-origin', ...rest, headers, body });
  const text = await res.text();
  let data: unknown = text;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a proxy error page, for instance): keep the raw text for the error.
  }
  if (!res.ok) throw new FetchError(res.status, res.statusText || 'HTTP 错误', data);
  return data as T;
}
