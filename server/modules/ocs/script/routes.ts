/**
 * HTTP layer of the OCS client side: the AnswererWrapper subscription OCS imports, the portal's own
 * userscript, and what the config and download pages need to know about both.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { USERSCRIPT_CHANGELOG, USERSCRIPT_VERSION, buildAnswererConfig, refusalConfig } from '@contract';
import * as api from '@contract/api/ocs';
import type { AppDeps } from '../../../deps';
import type { Config } from '../../../config';
import { HttpError, badRequest } from '../../../errors';
import { success } from '../../../http/reply';
import { route } from '../../../http/route';
import { tokenFrom } from '../../../plugins/auth';
import { buildUserscript } from './userscript';

// Host header characters a real host (name, IPv4, [IPv6], port) can contain; anything else would be
// written into configs and the script.
const HOST_RE = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The portal's public base URL: PUBLIC_URL, or this request's protocol and host. No trailing slash. */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL'>, request: FastifyRequest): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = request.host;
  if (!host || !HOST_RE.test(host)) throw badRequest('无效的 Host 请求头');
  return `${request.protocol}://${host}`;
}

export default async function ocsScriptRoutes(app: FastifyInstance, { config }: AppDeps): Promise<void> {
  route(
    app,
    api.config,
    async (request, reply) => {
      // The token the auth layer verified (Bearer or query) is the one written into the config.
      const token = tokenFrom(request)!;
      reply.header('cache-control', 'no-store'); // the body carries the token
      return buildAnswererConfig({
        baseUrl: publicBaseUrl(config, request),
        token,
        requestType: request.query.type,
        method: request.query.method,
        detail: request.query.detail === '1',
      });
    },
    {
      // OCS fetches the subscription from the student's course site, so the answer (errors too) is
      // cross-origin: the headers go on before the token check.
      onRequest: async (_request, reply) => {
        reply.header('access-control-allow-origin', '*');
        reply.header('cross-origin-resource-policy', 'cross-origin');
      },
      // A refusal is still the array the script imports, named after the problem (refusalConfig).
      errorHandler: (err: Error & { statusCode?: number }, request, reply) => {
        const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
        if (status >= 500) request.log.error({ err }, 'ocs config failed');
        const why =
          err instanceof HttpError && status < 500
            ? err.message
            : status < 500
              ? '订阅地址的参数不正确'
              : '服务暂时不可用，请稍后再试';
        const message = `${why}：请到门户「OCS 配置」页重新复制订阅地址`;
        let base: string;
        try {
          base = publicBaseUrl(config, request);
        } catch {
          base = '';
        }
        void reply.code(status).header('cache-control', 'no-store').send(refusalConfig(base, message));
      },
    },
  );

  route(app, api.userscript, async (request, reply) => {
    const script = buildUserscript(publicBaseUrl(config, request));
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script);
  });

  route(app, api.scriptInfo, async (request) => {
    const baseUrl = publicBaseUrl(config, request);
    return success({
      baseUrl,
      version: USERSCRIPT_VERSION,
      changelog: USERSCRIPT_CHANGELOG,
      userscriptUrl: `${baseUrl}${api.userscript.path}`,
      subscriptionBase: `${baseUrl}${api.config.path}`,
    });
  });
}
