/**
 * Refuses text PostgreSQL cannot store, once, at the edge, for every string a request carries (query,
 * path params and body, however deeply nested): NUL characters (text columns refuse \u0000) and lone
 * UTF-16 surrogates (they turn into U+FFFD in text and break jsonb). The answer is the usual 400 with
 * the field named, before any handler or service sees the input, so nothing is half-written. A field
 * carrying JSON as text is decoded and checked by its schema (`jsonText`, src/contract/text.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { BAD_TEXT_MESSAGE as MESSAGE, findBadText } from '@contract/text';
import { HttpError } from '../errors';

function check(request: FastifyRequest): void {
  for (const [where, value] of [
    ['query', request.query],
    ['params', request.params],
    ['body', request.body],
  ] as const) {
    const found = findBadText(value);
    if (!found) continue;
    const field = found.join('.') || where;
    throw new HttpError(400, 'VALIDATION_FAILED', `输入有误：${field} ${MESSAGE}`, { [field]: [MESSAGE] });
  }
}

export default fp(
  async function text(app: FastifyInstance) {
    // preValidation: after the body is parsed, before the schemas and the handler.
    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config.auth) check(request);
    });
  },
  { name: 'text' },
);
