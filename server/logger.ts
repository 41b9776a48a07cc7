/** pino options: secrets (passwords, cookies, tokens) never reach a log line. */
import type { FastifyServerOptions } from 'fastify';

const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.oldPassword',
  '*.token',
  '*.apiKey',
  '*.secret',
];

/**
 * Strips secret-bearing query parameters (the OCS script and curl pass `token=` in the URL) and the
 * tokens the drop-in compatible endpoints carry in their path (ServerChan's `/<sendkey>.send`,
 * PushPlus's `/send/<token>`). `ticket`, `code` and `state` are a CAS service ticket, an OIDC authorization
 * code and the sign-in's state: one-time credentials of the SSO callbacks.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|access_token|password|key|ticket|code|state)=)[^&#]*/gi, '$1[REDACTED]')
    .replace(/^\/[^/?#]+(\.send)(?=$|[?#])/, '/[REDACTED]$1')
    .replace(/^(\/send\/)[^/?#]+/, '$1[REDACTED]');
}

/** The most of a request's query string a log line keeps (its path is always kept whole). */
export const LOGGED_QUERY_MAX = 200;

/**
 * The URL as a log line shows it: the path whole, at most LOGGED_QUERY_MAX characters of the query
 * string (with how many were left out), secrets redacted. The OCS script sends the question's title
 * and options in the query string, percent-encoded: ~1 KB for a Chinese question, which every
 * request's log line repeated in full, and which the query log in the database keeps anyway.
 */
export function logUrl(url: string): string {
  const q = url.indexOf('?');
  const cut = q + 1 + LOGGED_QUERY_MAX;
  // Cut before redacting: a parameter whose name is cut off has lost its value with it.
  return redactUrl(q < 0 || url.length <= cut ? url : `${url.slice(0, cut)}…(+${url.length - cut})`);
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT, censor: '[REDACTED]' },
    serializers: {
      req(request: { method: string; url: string; ip?: string; hostname?: string }) {
        return { method: request.method, url: logUrl(request.url), ip: request.ip, host: request.hostname };
      },
    },
  };
}
