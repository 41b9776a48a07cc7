/**
 * Refuses text PostgreSQL cannot store, once, at the edge, for every string a request carries (query,
 * path params and body, however deeply nested): NUL characters (text columns refuse \u0000) and lone
 * UTF-16 surrogates (they turn into U+FFFD in text and break jsonb). The answer is the usual 400 with
 * the field named, before any handler or service sees the input, so nothing is half-written.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../errors';

/**
 * A NUL character or a lone surrogate. String.prototype.isWellFormed finds the second natively: a
 * third of the cost of the regular expression with lookbehind that did it, on an OCS query's ~1 KB of
 * title and options (checked on every request).
 */
const isBadText = (s: string) => s.includes('\u0000') || !s.isWellFormed();
const MESSAGE = '包含无法识别的字符（空字符 \\u0000 或无效的 Unicode 字符）';
/** Deeper structures are refused as well: no request this API accepts nests that far. */
const MAX_DEPTH = 32;

/** The path of the first unstorable string (or over-deep structure) in `value`, or null. */
export function findBadText(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return isBadText(value) ? [] : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return [];
  if (Buffer.isBuffer(value)) return null;
  // The path is built on the way back, only for the string found: nothing is allocated for clean input.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (isBadText(key)) return [key];
    const found = findBadText((value as Record<string, unknown>)[key], depth + 1);
    if (found) {
      found.unshift(key);
      return found;
    }
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
