/**
 * Prometheus metrics at `GET /metrics` (text format, prom-client). Each app has its own registry,
 * `app.metrics`: this plugin puts the process metrics (memory, CPU, event-loop lag, GC) and the HTTP
 * metrics there, and each module registers its own (`new Counter({ ..., registers: [app.metrics] })`).
 *
 * HTTP metrics are labelled by the route pattern (`/api/ums/channels/:id`), never the raw URL, so their
 * number stays bounded; answers that matched no route (unknown paths, the SPA fallback) are `unmatched`.
 *
 * Who may read them: a caller with `Authorization: Bearer <METRICS_TOKEN>`, or one connecting from an
 * address in METRICS_ALLOW. The allow-list is checked against the TCP peer, and a request that came
 * through a proxy (it carries X-Forwarded-For or Forwarded) needs the token: otherwise anyone reaching
 * the proxy would share the proxy's address. With neither variable set nobody may.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { forbidden } from '../errors';
import { parseIpAllowList } from '../lib/ip-allow';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry; modules register their metrics here. */
    metrics: Registry;
  }
}

export interface MetricsOptions {
  /** METRICS_TOKEN. */
  token?: string;
  /** METRICS_ALLOW: comma-separated IPs and CIDR blocks. */
  allow: string;
}

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

export default fp(
  async function metrics(app: FastifyInstance, opts: MetricsOptions) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    app.decorate('metrics', registry);

    const labelNames = ['method', 'route', 'status_class'] as const;
    const requests = new Counter({
      name: 'portal_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status class.',
      labelNames,
      registers: [registry],
    });
    const errors = new Counter({
      name: 'portal_http_errors_total',
      help: 'HTTP answers with a 5xx status, by method, route pattern and status class.',
      labelNames,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by method, route pattern and status class.',
      labelNames,
      registers: [registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode >= 500) errors.inc(labels);
    });

    const token = opts.token ? digest(opts.token) : null;
    const allow = parseIpAllowList(opts.allow);
    const admitted = (request: FastifyRequest): boolean => {
      const bearer = /^bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
      if (token && bearer && crypto.timingSafeEqual(digest(bearer[1].trim()), token)) return true;
      const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
      return !proxied && allow.allows(request.socket.remoteAddress);
    };

    app.route({
      method: 'GET',
      url: '/metrics',
      // Public to the auth plugin (no session needed); this route's own hook checks the token or address.
      config: { auth: 'public' },
      schema: { hide: true },
      onRequest: async (request) => {
        if (!admitted(request)) throw forbidden('无权读取监控指标');
      },
      handler: async (_request, reply) =>
        reply
          .type(registry.contentType)
          .header('cache-control', 'no-store')
          .send(await registry.metrics()),
    });
  },
  { name: 'metrics', dependencies: ['auth'] },
);
