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

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: REDACT, censor: '[REDACTED]' },
    serializers: {
      req(request: { method: string; url: string; ip?: string; hostname?: string }) {
        return { method: request.method, url: redactUrl(request.url), ip: request.ip, host: request.hostname };
      },
    },
  };
}
