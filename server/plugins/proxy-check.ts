/**
 * Warns once when requests arrive through a proxy (they carry X-Forwarded-For) while TRUST_PROXY is off:
 * every client then has the proxy's address, so per-IP limits (login throttling, registration) treat
 * all users as one, and logs show the proxy instead of the client.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(
  async function proxyCheck(app: FastifyInstance, opts: { trustProxy: boolean }) {
    if (opts.trustProxy) return;
    let warned = false;
    app.addHook('onRequest', async (request) => {
      if (warned || request.headers['x-forwarded-for'] === undefined) return;
      warned = true;
      request.log.warn(
        { remoteAddress: request.socket.remoteAddress },
        'requests carry X-Forwarded-For but TRUST_PROXY is off: every client behind the proxy shares its IP ' +
          'for login throttling and rate limits. Set TRUST_PROXY=true when the portal runs behind a reverse proxy.',
      );
    });
  },
  { name: 'proxy-check' },
);
