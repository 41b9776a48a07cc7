/**
 * URLs of endpoints for what the browser fetches itself (links, CSV exports, downloads, SSO
 * redirects), and the query string Fastify reads arrays from. Apart from call.ts so UI tests can
 * replace call() and upload() while links stay real.
 */
import type { Endpoint } from '@/contract/endpoint';
import { pathOf } from '@/contract/endpoint';

type QueryValue = string | number | boolean | null | undefined;

/** A query string with arrays as repeated keys (`kind=a&kind=b`, as Fastify reads them); empty values left out. */
export function toQueryString(query: object): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query) as [string, QueryValue | QueryValue[]][]) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== '') search.append(key, String(v));
    }
  }
  return search.toString();
}

/** The URL of an endpoint, for links and downloads the browser fetches itself (CSV exports, scripts). */
export function urlOf<E extends Endpoint>(
  endpoint: E,
  input: { params?: Record<string, unknown>; query?: Record<string, QueryValue | readonly QueryValue[]> } = {},
): string {
  const path = pathOf(endpoint, input.params);
  const qs = toQueryString(input.query ?? {});
  return qs ? `${path}?${qs}` : path;
}
