/**
 * Refuses text PostgreSQL cannot store, once, at the edge, for every string a request carries (query,
 * path params and body, however deeply nested): NUL characters (text columns refuse \u0000) and lone
 * UTF-16 surrogates (they turn into U+FFFD in text and break jsonb). The answer is the usual 400 with
 * the field named, before any handler or service sees the input, so nothing is half-written.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors';

// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this refuses
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const MESSAGE = '包含无法识别的字符（空字符 \\u0000 或无效的 Unicode 字符）';
/** Deeper structures are refused as well: no request this API accepts nests that far. */
const MAX_DEPTH = 32;

/** The path of the first unstorable string (or over-deep structure) in `value`, or null. */
export function findBadText(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return path;
  if (Buffer.isBuffer(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (BAD_TEXT.test(key)) return [...path, key];
    const found = findBadText(inner, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

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
