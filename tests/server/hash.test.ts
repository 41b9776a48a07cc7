/**
 * sha256 (server/lib/tokens.ts) hashes in one call (crypto.hash, Node 20.12 and later, as package.json's
 * engines says). What it returns is stored: token hashes, and the bank's title and option-set hashes,
 * which every installed bank's rows and every answer lookup compare. So it must stay createHash's digest of the text's UTF-8 bytes for
 * any text, including the ones a request can smuggle in (NUL, lone surrogates, astral characters).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha256 } from '../../server/lib/tokens';
import { titleHash } from '../../server/modules/ocs/bank/normalize';
import { optionsHash } from '../../server/modules/ocs/bank/question';

const reference = (s: string) => createHash('sha256').update(s).digest('hex');

test('the FIPS 180-2 test vector, and the empty text', () => {
  expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('the digest of the UTF-8 bytes for any text', () => {
  const unit = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('\u0000', '\ud800', '\udc00x', 'a\ud83d', '😀', '题目\u0002single\u0002'),
  );
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 4 }), (parts) => {
      const s = parts.join('');
      expect(sha256(s)).toBe(reference(s));
    }),
    { numRuns: 200 },
  );
});

test('the bank keys keep their stored form', () => {
  const title = '下列关于社会主义核心价值观的说法中正确的是';
  expect(titleHash(title)).toBe(reference(title).slice(0, 32));
  expect(titleHash(title)).toHaveLength(32);
  const keys = ['富强民主文明和谐', '以上都是'];
  // Option keys are sorted and joined with U+0001 before hashing; no options hash to ''.
  expect(optionsHash(['以上都是', '富强、民主、文明、和谐'])).toBe(reference(keys.sort().join('\u0001')).slice(0, 16));
  expect(optionsHash([])).toBe('');
});
