/**
 * The edge's check for text PostgreSQL cannot store (server/plugins/text.ts) and the OCS question's
 * check for garbage (query/question.ts) find exactly what the regular expressions they replaced found:
 * a NUL character or a lone surrogate, and control characters, U+FFFD or a lone surrogate. Random
 * strings are built from the characters those checks tell apart.
 */
import fc from 'fast-check';
import { parseQuestion } from '../../server/modules/ocs/query/question';
import { findBadText } from '../../src/contract/text';

/* eslint-disable no-control-regex -- the control characters are what the references look for */
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const GARBAGE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/* eslint-enable no-control-regex */

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom('\u0000', '\u0001', '\t', '\n', '\r', '\u001f', '\u007f', '\ufffd', '\ud800', '\udbff', '\udc00'),
      fc.constantFrom('\udfff', '\ud83d\ude00', 'a', '题', ' ', '='),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

/** The path of the first bad string, as the regular expression's version walked it. */
function reference(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return BAD_TEXT.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    if (BAD_TEXT.test(key)) return [...path, key];
    const found = reference(inner, [...path, key]);
    if (found) return found;
  }
  return null;
}

test('findBadText names the same string as the regular expression, anywhere in a request', () => {
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(text, tie('node'), { maxKeys: 3 }),
    ),
  })).node;
  fc.assert(
    fc.property(value, (v) => {
      expect(findBadText(v)).toEqual(reference(v));
    }),
    { numRuns: 3000 },
  );
  expect(findBadText({ a: ['ok', { b: 'x\u0000' }] })).toEqual(['a', '1', 'b']);
  expect(findBadText({ ['\ud800']: 'ok' })).toEqual(['\ud800']);
});

test("an OCS question's title or options are refused exactly when the regular expression found garbage", () => {
  fc.assert(
    fc.property(text, text, (title, option) => {
      const q = parseQuestion({ title: `题目${title}`, options: [`选项${option}`] });
      const refused = typeof q === 'string' && /无法识别的字符/.test(q);
      expect(refused).toBe(GARBAGE.test(`题目${title}`) || GARBAGE.test(`选项${option}`));
    }),
    { numRuns: 3000 },
  );
});
