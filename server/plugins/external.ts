/**
 * The third-party plugins every route relies on: security headers (with the CSP the UI works under),
 * compression of larger answers, cookies, form bodies for curl, rate limits, uploads, and the OpenAPI
 * document at /api/docs.
 */
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import pkg from '../../package.json';

/** A built script or stylesheet of the UI (not an API path): `/umi.1a2b3c4d.js`, `/antd.….css?v`. */
export function isScriptOrStylesheet(url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0]!;
  return /\.(js|css)$/.test(pathname) && !/^\/api(\/|$)/.test(pathname);
}

/** An /api answer other than the OpenAPI pages (/api/docs, an HTML page with its own policy). */
export function isApiAnswer(url: string): boolean {
  const pathname = url.split(/[?#]/, 1)[0]!;
  return /^\/api(\/|$)/.test(pathname) && !/^\/api\/docs(\/|$)/.test(pathname);
}
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export default fp(
  async function external(app: FastifyInstance) {
    // Helmet's middleware is built once: @fastify/helmet built it anew on every request (3.8 % of the
    // main thread under the OCS bench's load, parsing the CSP directives each time).
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"], // antd's CSS-in-JS injects style tags
          imgSrc: ["'self'", 'data:', 'blob:'],
          connectSrc: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      strictTransportSecurity: false, // set by the TLS-terminating proxy, which knows whether HTTPS is real
    });
    app.addHook('onRequest', (request, reply, done) => {
      // Scripts and stylesheets are never documents (plugins/ui.ts answers 404, not index.html, for a
      // missing one): the document-only headers (CSP, framing, COOP, …) would do nothing on them, and
      // were about half a KiB on each of the 13 such files of a first visit to /user/login. API
      // answers (JSON, downloads) get a policy by which nothing in them may load, run or be framed.
      const api = isApiAnswer(request.url);
      if (api || isScriptOrStylesheet(request.url)) {
        reply.raw.setHeader('X-Content-Type-Options', 'nosniff');
        reply.raw.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
        reply.raw.setHeader('Referrer-Policy', 'no-referrer');
        if (api) reply.raw.setHeader('Content-Security-Policy', API_CSP);
        return done();
      }
      securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
    });
    // JSON lists and CSV exports above 1 KiB go out compressed; static files arrive precompressed
    // (plugins/ui.ts) and are left alone. Brotli at quality 5: most of the gain, a fraction of the CPU of 11.
    await app.register(fastifyCompress, {
      threshold: 1024,
      encodings: ['br', 'gzip'],
      brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } },
    });
    await app.register(fastifyCookie);
    await app.register(fastifyFormbody); // curl -d for the token APIs; session routes still require JSON
    await app.register(fastifyRateLimit, { global: false });
    await app.register(fastifyMultipart, { limits: { fileSize: 2 * 1024 * 1024, files: 1, fields: 5 } });
    await app.register(fastifySwagger, {
      openapi: { info: { title: 'Portal API', version: pkg.version, description: '统一门户 HTTP 接口' } },
      transform: jsonSchemaTransform,
    });
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'external' },
);
