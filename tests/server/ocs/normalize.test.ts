/**
 * squeeze() (bank/normalize.ts), the last step of every title's and option's matching key, is one
 * pass with a table of character classes; it must give exactly what the four regular expressions it
 * replaced give, on any text: punctuation of every script, digits with points and minus signs, letters
 * beside them, astral characters, lone surrogates, the placeholder characters themselves.
 */
import fc from 'fast-check';
import { cleanTitle, normalizeTitle, optionKey, squeeze } from '../../../server/modules/ocs/bank/normalize';

/* eslint-disable no-control-regex */
const reference = (s: string) =>
  s
    .replace(/(\d)\.(?=\d)/g, '$1\u0000')
    .replace(/(^|[^\p{L}\p{N}])-(?=\d)/gu, '$1\u0001')
    .replace(/[\p{P}\p{Z}\s\u200b-\u200f\u2060\ufeff]+/gu, '')
    .replace(/\u0000/g, '.')
    .replace(/\u0001/g, '-');
/* eslint-enable no-control-regex */

/** Characters where the rules meet, and a sample of every kind of character. */
const ALPHABET = [
  ...'0123456789.-−–—,，。、．·…!?！？ \t\n\u3000\u00a0\u200b\u200e\u2060\ufeff\u0000\u0001',
  ...'aZé中文题ⅣⅫ①²٣߀+=×÷<>%$@#_()（）[]【】《》「」\'"“”',
  '\u{1d7d8}', // MATHEMATICAL DOUBLE-STRUCK DIGIT ZERO (a letter-or-digit outside the BMP)
  '\u{10100}', // AEGEAN WORD SEPARATOR LINE (punctuation outside the BMP)
  '\u{1f600}', // an emoji (a symbol: stays)
  '\u{20000}', // a CJK ideograph outside the BMP
  '\ud800', // lone high surrogate
  '\udc00', // lone low surrogate
];

test('the same as the regular expressions on texts built from the characters where the rules meet', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 24 }), (chars) => {
      const s = chars.join('');
      expect(squeeze(s)).toBe(reference(s));
    }),
    { numRuns: 20_000 },
  );
});

test('the same as the regular expressions on any UTF-16 text', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
      expect(squeeze(s)).toBe(reference(s));
    }),
    { numRuns: 20_000 },
  );
  // Every UTF-16 unit on its own, and between digits.
  const differ: string[] = [];
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    for (const s of [ch, `1${ch}2`, `${ch}-3`, `a${ch}.5`]) if (squeeze(s) !== reference(s)) differ.push(s);
  }
  expect(differ).toEqual([]);
});

test('decimal points and minus signs keep questions apart', () => {
  expect(normalizeTitle('温度从 -3.5 ℃ 升到 3.5 ℃，变化了多少？')).toBe('温度从-3.5°c升到3.5°c变化了多少');
  expect(normalizeTitle('x-1 的值')).toBe('x1的值');
  expect(optionKey('A、1.5 千克')).toBe('a1.5千克');
});

test('leading type, number and score tags do not change the key', () => {
  expect(normalizeTitle(' 【单选题】 12. 细胞膜（2分）')).toBe('细胞膜');
  expect(normalizeTitle('第3题 [多选题, 2分] (4) 细胞膜（共10分）')).toBe('细胞膜');
  expect(cleanTitle('【判断题】 1、 细胞膜（2分）')).toBe('细胞膜');
});
