/**
 * The error envelope: every /api failure answers { success:false, errorCode, errorMessage, showType, data? }
 * with a truthful HTTP status. 500s never carry internals; every 5xx carries the request id
 * (`requestId`, also in the X-Request-Id header and the log lines) for the user to quote.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ShowType } from '@contract/endpoint';
import { HttpError } from '../errors';

function fieldErrors(validation: { instancePath: string; message?: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const v of validation) {
    const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
    (out[key] ??= []).push(v.message ?? '无效输入');
  }
  return out;
}

/**
 * What Fastify's router answers itself, before any route, hook or error handler (Fastify's
 * `frameworkErrors` option, set in server/app.ts): a path parameter over the router's length limit
 * (414) and a malformed %-escape in the path (400). Without it these were bare Fastify bodies, not the
 * envelope (found by tests/server/property.test.ts).
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status === 500) request.log.error({ err }, 'router error');
  void reply
    .status(status)
    .header('cache-control', 'no-store')
    .send({
      success: false,
      errorCode: status === 500 ? 'INTERNAL' : (err.code ?? 'BAD_REQUEST'),
      errorMessage: status === 414 ? '请求地址过长' : status === 500 ? '服务器内部错误，请稍后重试' : '请求地址有误',
      showType: ShowType.ERROR_MESSAGE,
      ...(status === 500 ? { requestId: request.id } : {}),
    });
}

/**
 * The most of an unread request body that is read and thrown away before an early answer goes out.
 * Fastify refuses an oversized body (413) before reading it and closes the connection; a client still
 * sending then got a reset instead of the answer (the race RFC 9112 §9.6 describes). So an answer to a
 * request whose body is not read yet waits until the rest has arrived (dropped, not kept), and the
 * client, done sending, reads it; the connection can then be reused. A body declared or found larger
 * than this (more than any route takes) is answered at once and its connection closed.
 */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

async function drainUnreadBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  // `complete` is Node's own flag (a request injected in tests has none and is always whole).
  if (raw.complete !== false || raw.readableEnded || raw.destroyed) return;
  if (Number(raw.headers['content-length']) > DRAIN_MAX_BYTES) return;
  const drained = await new Promise<boolean>((resolve) => {
    let dropped = 0;
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DRAIN_MAX_BYTES) done(false);
    };
    const onEnd = () => done(true);
    const onClose = () => done(raw.complete);
    // The error listener stays: a client gone mid-body must not become an unhandled 'error' event.
    function done(complete: boolean) {
      raw.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(complete);
    }
    raw.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onClose);
    raw.resume();
  });
  // Fastify asked to close because the client might still be sending; it no longer is.
  if (drained) reply.removeHeader('connection');
}

export default fp(async function errors(app: FastifyInstance) {
  // Every answer sent before its request's body was read (a 413, a refusal before parsing, a route's
  // own error handler) waits for the rest of the body, so that the client reads the answer.
  app.addHook('onSend', async (request, reply) => {
    await drainUnreadBody(request, reply);
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send({
        success: false,
        errorCode: err.errorCode,
        errorMessage: err.message,
        showType: ShowType.ERROR_MESSAGE,
        ...(err.data ? { data: err.data } : {}),
        ...(err.statusCode >= 500 ? { requestId: request.id } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const data = fieldErrors(err.validation);
      const first = Object.entries(data)[0];
      return reply.status(400).send({
        success: false,
        errorCode: 'VALIDATION_FAILED',
        errorMessage: first ? `输入有误：${first[1][0]}` : '输入有误',
        showType: ShowType.ERROR_MESSAGE,
        data,
      });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send({
        success: false,
        errorCode: 'INTERNAL',
        errorMessage: '服务器内部错误，请稍后重试',
        showType: ShowType.ERROR_MESSAGE,
        requestId: request.id,
      });
    }
    // Fastify's own 4xx: malformed JSON, body too large, unsupported media type, rate limits.
    const messages: Record<number, string> = {
      400: '请求格式有误',
      404: '资源不存在',
      413: '请求体过大',
      415: '不支持的请求格式，请使用 JSON',
      429: '请求过于频繁，请稍后再试',
    };
    return reply.status(status).send({
      success: false,
      errorCode: err.code ?? 'BAD_REQUEST',
      errorMessage: messages[status] ?? '请求有误',
      showType: ShowType.ERROR_MESSAGE,
    });
  });
});
