/**
 * parseQueryString (server/http/querystring.ts), every route's query-string parser, must give what
 * Fastify's default (fast-querystring) gives for any query string: the cheaper decoding is the only
 * change. Queries mix the pieces that parsers treat differently: escapes that are malformed, truncated
 * or of lone surrogates, plus signs, escaped separators, repeated keys and prototype-looking keys.
 */
import fc from 'fast-check';
import fastQuerystring from 'fast-querystring';
import { parseQueryString } from '../../server/http/querystring';
import { RAW_QUERY_JUNK, toQueryString } from './arbitraries';

const PIECES = [
  '%',
  '%2',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%F0%9F%98',
  '%F0%9F%98%80',
  '%u4e2d',
  '%%',
  '%C3%A9',
  '%E9%A2%98',
  '+',
  '%2B',
  '%20',
  ' ',
  '=',
  '%3D',
  '&',
  '%26',
  '%00',
  '__proto__',
  'constructor',
  '[',
  ']',
  'a',
  '题',
  'é',
];

const same = (text: string) => {
  const ours = parseQueryString(text);
  expect(ours).toEqual(fastQuerystring.parse(text));
  // Nothing inherited from Object.prototype: a query's __proto__ or constructor is just a key.
  expect(ours instanceof Object).toBe(false);
};

test('the same result as fast-querystring for any query string', () => {
  const piece = fc.oneof(
    fc.constantFrom(...PIECES),
    fc.string({ maxLength: 3 }),
    fc.string({ unit: 'binary', maxLength: 2 }),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 16 }), (parts) => same(parts.join(''))),
    { numRuns: 3000 },
  );
});

test('the same result for what encoders write, and for the junk no encoder writes', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }))), (value) =>
      same(toQueryString(value)),
    ),
    { numRuns: 500 },
  );
  for (const junk of RAW_QUERY_JUNK) same(junk);
});

test('an OCS query decodes to its Chinese text; a malformed escape stays as it came', () => {
  const title = '下列关于社会主义核心价值观的说法中，正确的是（ ）';
  const q = parseQueryString(`token=t&title=${encodeURIComponent(title)}&options=A.+%E5%AF%8C%E5%BC%BA&type=single`);
  expect(q).toEqual({ token: 't', title, options: 'A. 富强', type: 'single' });
  expect(parseQueryString('title=%E0%A4%A&x=%E9%A2%98')).toEqual({ title: '%E0%A4%A', x: '题' });
  expect(parseQueryString('a=1&a=2&b')).toEqual({ a: ['1', '2'], b: '' });
});
