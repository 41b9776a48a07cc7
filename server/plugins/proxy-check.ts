/**
 * Warns once when requests arrive through a proxy (they carry X-Forwarded-For) that TRUST_PROXY does not
 * trust (it is off, or names other addresses): every client then has the proxy's address, so per-IP
 * limits (login throttling, registration) treat all users as one, and logs show the proxy instead of
 * the client. A client may send the header itself, so this is only a hint, logged once.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { trustsPeer, type TrustProxy } from '../lib/trust-proxy';

export default fp(
  async function proxyCheck(app: FastifyInstance, opts: { trustProxy: TrustProxy }) {
    let warned = false;
    app.addHook('onRequest', async (request) => {
      if (warned || request.headers['x-forwarded-for'] === undefined) return;
      const remoteAddress = request.socket.remoteAddress;
      if (trustsPeer(opts.trustProxy, remoteAddress)) return;
      warned = true;
      request.log.warn(
        { remoteAddress, trustProxy: opts.trustProxy.text },
        'requests carry X-Forwarded-For from an address TRUST_PROXY does not trust: every client behind such a ' +
          'proxy shares its IP for login throttling and rate limits. Set TRUST_PROXY to the proxy (true for ' +
          'nginx on this host, a hop count, or its addresses) when the portal runs behind a reverse proxy.',
      );
    });
  },
  { name: 'proxy-check' },
);
