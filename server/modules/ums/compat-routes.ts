/**
 * The drop-in compatible endpoints, outside /api at the paths the services fixed: ServerChan's
 * `GET|POST /<sendkey>.send` and PushPlus's `GET|POST /send` (and `/send/<token>`). The key is a
 * personal token with scope ums:send, checked by the auth plugin like any token route; the message goes
 * through the same outbox, limits and worker as /api/ums/send. Every answer, refusals included, is in
 * the service's own JSON shape, with a truthful HTTP status.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import * as api from '@contract/api/ums';
import { HttpError } from '../../errors';
import { route, type RoutePolicy } from '../../http/route';
import { fieldsOf, pushPlusMessage, serverChanMessage } from './compat';
import { createWith, type UmsRouteDeps } from './routes';

interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** Any error as a status and a Chinese message (never internals). */
function refusal(err: FastifyError, request: FastifyRequest): Refusal {
  if (err instanceof HttpError) return { status: err.statusCode, message: err.message, headers: err.headers };
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0];
    const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') ?? '';
    return { status: 400, message: `输入有误：${field ? `${field} ` : ''}${first?.message ?? ''}`.trim() };
  }
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) {
    request.log.error({ err }, 'ums compat send failed');
    return { status, message: `服务器内部错误，请稍后重试（请求编号 ${request.id}）` };
  }
  return { status, message: status === 413 ? '请求体过大' : '请求格式有误' };
}

function answerWith(shape: (r: Refusal) => unknown): RoutePolicy {
  return {
    errorHandler: (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const r = refusal(err, request);
      if (r.headers) reply.headers(r.headers);
      void reply.code(r.status).header('cache-control', 'no-store').send(shape(r));
    },
  };
}

/** ServerChan: `code` 0 is success; a refusal carries the HTTP status as its code. */
const serverChanPolicy = answerWith((r) => ({ code: r.status, message: r.message, data: null }));

/** PushPlus's documented codes: 903 bad token, 401 not authorized, 900 too many, 999 bad input, 500. */
function pushPlusCode(status: number): number {
  if (status === 401) return 903;
  if (status === 403) return 401;
  if (status === 429) return 900;
  if (status >= 500) return 500;
  return 999;
}
const pushPlusPolicy = answerWith((r) => ({ code: pushPlusCode(r.status), msg: r.message, data: null }));

export default async function compatRoutes(app: FastifyInstance, deps: UmsRouteDeps): Promise<void> {
  const { db, limit } = deps;
  const create = createWith(deps);

  const serverChan = async (request: FastifyRequest) => {
    const auth = request.tokenAuth!;
    await limit(auth.tokenId);
    const input = serverChanMessage(fieldsOf(request.query, request.body));
    const created = await create(auth.userId, input, 'api', request.host);
    return {
      code: 0,
      message: '',
      data: { pushid: String(created.id), readkey: '', error: 'SUCCESS', errno: 0 },
    };
  };
  route(app, api.serverChanGet, serverChan, serverChanPolicy);
  route(app, api.serverChanPost, serverChan, serverChanPolicy);

  const pushPlus = async (request: FastifyRequest) => {
    const auth = request.tokenAuth!;
    await limit(auth.tokenId);
    const input = await pushPlusMessage(db, auth.userId, fieldsOf(request.query, request.body));
    const created = await create(auth.userId, input, 'api', request.host);
    return { code: 200, msg: '请求成功', data: String(created.id) };
  };
  route(app, api.pushPlusGet, pushPlus, pushPlusPolicy);
  route(app, api.pushPlusPost, pushPlus, pushPlusPolicy);
  route(app, api.pushPlusTokenGet, pushPlus, pushPlusPolicy);
  route(app, api.pushPlusTokenPost, pushPlus, pushPlusPolicy);
}
