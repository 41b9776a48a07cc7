/**
 * A request id on every request: in every log line (`requestId`), in the `X-Request-Id` header of every
 * answer (JSON, errors, static files) and in the envelope of 5xx answers, so a user can quote it and an
 * operator can find the log lines. From a trusted proxy (TRUST_PROXY) the proxy's `X-Request-Id` is
 * kept when it looks like an id, so one id follows the request through both logs; otherwise a caller
 * could write anything into our logs, and a fresh UUID is used.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { trustsPeer, type TrustProxy } from '../lib/trust-proxy';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE = /^[A-Za-z0-9._-]{1,64}$/;

/** The Fastify constructor options that name requests (server/app.ts). */
export function requestIdOptions(
  trustProxy: TrustProxy,
): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    // Fastify would take the header unchecked; genReqId decides instead.
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    genReqId(req: IncomingMessage) {
      if (trustsPeer(trustProxy, req.socket?.remoteAddress)) {
        const given = req.headers[REQUEST_ID_HEADER];
        if (typeof given === 'string' && SANE.test(given)) return given;
      }
      return crypto.randomUUID();
    },
  };
}

export default fp(
  async function requestId(app: FastifyInstance) {
    // First hook of all (this plugin is registered first), so refusals by later hooks carry it too.
    app.addHook('onRequest', async (request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
    });
  },
  { name: 'request-id' },
);
