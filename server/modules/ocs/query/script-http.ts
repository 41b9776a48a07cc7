/**
 * What the OCS script's endpoints share (the query, the batch and the report): the answer is always
 * HTTP 200 in the script's shape, readable cross-origin (the script may call with fetch); the token and
 * the per-token rate limit are checked the way the script needs them (a refusal is `{code: 0, msg}`);
 * parameters come from the query string and a JSON, form or plain-text body.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import querystring from 'node:querystring';
import { HttpError, isAuthError } from '../../../errors';
import type { RoutePolicy } from '../../../http/route';
import { tokenFrom } from '../../../plugins/auth';
import type { CountQuery } from './metrics';
import { TooFast } from './service';

/** On every answer of the script's API: any page may read it. */
export const CORS = {
  'access-control-allow-origin': '*',
  // Helmet's same-origin default would stop pages from reading the answer.
  'cross-origin-resource-policy': 'cross-origin',
};
/**
 * The preflight's answer (OPTIONS) besides: what a cross-origin fetch may send, for a day. Browsers read
 * these only on the preflight, so the answers themselves (one per question) do without them.
 */
export const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '86400',
};

/** The script's parameters from the query string and a JSON, form or plain-text body. */
export function paramsOf(request: FastifyRequest): Record<string, unknown> {
  let body: unknown = request.body;
  if (typeof body === 'string') {
    const text = body.trim();
    try {
      body = text.startsWith('{') ? JSON.parse(text) : querystring.parse(text);
    } catch {
      body = {};
    }
  }
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...(request.query as Record<string, unknown>), ...fromBody };
}

/** What the script is told when its query failed. */
function scriptFailureMessage(err: Error & { statusCode?: number }): string {
  // Our own refusals (text the database cannot store, say) are in Chinese already and name the field.
  if (err instanceof HttpError && err.statusCode < 500) return err.message;
  if (err.statusCode === 413) return '请求体过大';
  if (err.statusCode && err.statusCode < 500) return '请求格式不正确';
  return '服务暂时不可用，请稍后再试（未扣费）';
}

/**
 * The token and the rate limit of a script's request, as the script needs them: the caller, or the
 * `{code: 0, msg}` to answer.
 */
export function scriptAdmission(app: FastifyInstance, countQuery: CountQuery) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: Record<string, unknown>,
    points = 1,
  ): Promise<{ userId: number; tokenId: number } | { code: 0; msg: string }> => {
    reply.headers(CORS);
    const token = tokenFrom(request) ?? (typeof params.token === 'string' ? params.token : undefined);
    let auth;
    try {
      auth = await app.identity.verifyToken(token, 'ocs:query', request.ip);
    } catch (err) {
      if (!isAuthError(err)) throw err;
      countQuery('unauthorized', 'none');
      return { code: 0, msg: err.message };
    }
    try {
      await app.ocs.service.checkRate(`token:${auth.tokenId}`, points);
    } catch (err) {
      if (!(err instanceof TooFast)) throw err;
      countQuery('rate_limited', 'none');
      reply.header('retry-after', String(err.retryAfterSeconds));
      return { code: 0, msg: '请求过快，请稍后再试' };
    }
    return { userId: auth.userId, tokenId: auth.tokenId };
  };
}

/** Even a malformed body or a failing database is answered in the script's shape. */
export const scriptPolicy: RoutePolicy = {
  errorHandler: (err: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
    if (!err.statusCode || err.statusCode >= 500) request.log.error({ err }, 'ocs query failed');
    void reply
      .code(200)
      .headers(CORS)
      .send({ code: 0, msg: scriptFailureMessage(err) });
  },
};
