/**
 * Text PostgreSQL cannot store: NUL characters (text columns refuse \u0000) and lone UTF-16
 * surrogates (they turn into U+FFFD in text and break jsonb). The server refuses them at the edge in
 * every string a request carries (server/plugins/text.ts); a field that carries JSON as text is
 * decoded by its schema (`jsonText`) and checked the same way, since `\u0000` written as an escape
 * inside it is plain ASCII until then.
 */
import { z } from 'zod';

export const BAD_TEXT_MESSAGE = '包含无法识别的字符（空字符 \\u0000 或无效的 Unicode 字符）';

/**
 * A NUL character or a lone surrogate. String.prototype.isWellFormed finds the second natively: a
 * third of the cost of the regular expression with lookbehind that did it, on an OCS query's ~1 KB of
 * title and options (checked on every request).
 */
export const isBadText = (s: string): boolean => s.includes('\u0000') || !s.isWellFormed();

/** Deeper structures are refused as well: no request this API accepts nests that far. */
const MAX_DEPTH = 32;

/** The path of the first unstorable string (or over-deep structure) in `value`, or null. */
export function findBadText(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return isBadText(value) ? [] : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return [];
  if (typeof Buffer !== 'undefined' && Buffer.isBuffer(value)) return null;
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

/**
 * A field that may carry its value as JSON text (a query or form field, or a string in a JSON body):
 * the text is decoded, and what it decodes to is checked like any other input (NUL and lone
 * surrogates refused with the path inside the field) before `schema` sees it. Text that is not JSON
 * goes to `schema` as it is.
 */
export function jsonText<T extends z.ZodType>(schema: T) {
  return z.preprocess((v, ctx) => {
    if (typeof v !== 'string') return v;
    let decoded: unknown;
    try {
      decoded = JSON.parse(v);
    } catch {
      return v;
    }
    const bad = findBadText(decoded);
    if (bad) {
      ctx.addIssue({ code: 'custom', path: bad, message: BAD_TEXT_MESSAGE, input: v });
      return z.NEVER;
    }
    return decoded;
  }, schema);
}
