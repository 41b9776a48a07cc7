/**
 * HTTP layer of the OCS client side: the AnswererWrapper subscription OCS imports, the portal's own
 * userscript, and what the config and download pages need to know about both.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildAnswererConfig, OcsConfigQuery, OcsConfigResponse, OcsScriptInfoResponse } from '../../../src/contract';
import type { AppDeps } from '../../app';
import type { Config } from '../../config';
import { badRequest } from '../../errors';
import { tokenFrom } from '../../plugins/auth';
import { buildUserscript, USERSCRIPT_CHANGELOG, USERSCRIPT_VERSION } from './userscript';

const tags = ['ocs'];

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

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { config }) => {
  app.get(
    '/config',
    {
      config: { auth: 'token', scope: 'ocs:query' },
      // OCS fetches the subscription from the student's course site, so the answer (errors too) is cross-origin.
      onRequest: async (_request, reply) => {
        reply.header('access-control-allow-origin', '*');
        reply.header('cross-origin-resource-policy', 'cross-origin');
      },
      schema: {
        tags,
        summary: 'OCS 题库配置（订阅地址；令牌 ocs:query）',
        description:
          '返回 OCS 可直接导入的 AnswererWrapper 数组（无信封）。type：GM_xmlhttpRequest（默认）或 fetch；method：get（默认）或 post。',
        querystring: OcsConfigQuery,
        response: { 200: OcsConfigResponse },
      },
    },
    async (request, reply) => {
      // The token the auth layer verified (Bearer or query) is the one written into the config.
      const token = tokenFrom(request)!;
      reply.header('cache-control', 'no-store'); // the body carries the token
      return buildAnswererConfig({
        baseUrl: publicBaseUrl(config, request),
        token,
        requestType: request.query.type,
        method: request.query.method,
      });
    },
  );

  app.get(
    '/userscript.user.js',
    {
      config: { auth: 'public' },
      schema: { tags, summary: '下载 Portal 题库助手用户脚本', response: { 200: z.string() } },
    },
    async (request, reply) => {
      const script = buildUserscript(publicBaseUrl(config, request));
      return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script);
    },
  );

  app.get(
    '/script-info',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '用户脚本与配置订阅信息', response: { 200: OcsScriptInfoResponse } },
    },
    async (request) => {
      const baseUrl = publicBaseUrl(config, request);
      return {
        success: true as const,
        data: {
          baseUrl,
          version: USERSCRIPT_VERSION,
          changelog: USERSCRIPT_CHANGELOG,
          userscriptUrl: `${baseUrl}/api/ocs/userscript.user.js`,
          subscriptionBase: `${baseUrl}/api/ocs/config`,
        },
      };
    },
  );
};

export default routes;
