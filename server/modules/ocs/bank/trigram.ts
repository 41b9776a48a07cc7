/**
 * pg_trgm's similarity() in JavaScript, so a fuzzy candidate held in memory is scored without a
 * database round trip. Same rules as the extension (default build, a UTF-8 database): the text is
 * lower-cased and cut into words (runs of letters and digits, CJK characters included); each word is
 * padded with two spaces in front and one behind; its trigrams are every three consecutive characters;
 * similarity = shared trigrams ÷ trigrams of either, as a float4. tests/server/ocs/trigram.test.ts
 * holds it equal to the database's own similarity() on PGlite and on PostgreSQL.
 *
 * One difference, on purpose: pg_trgm stores a trigram of multibyte characters as a 3-byte checksum,
 * so two different trigrams may collide there and not here (a shift of one trigram in a billion pairs).
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct trigrams of a text, as pg_trgm's show_trgm() lists them (multibyte ones unhashed). */
export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const chars = Array.from(`  ${m[0]} `);
    for (let i = 0; i + 3 <= chars.length; i++) out.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  }
  return out;
}

/** Similarity of two trigram sets, rounded to a float4 as the database returns it. */
export function setSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) common++;
  return Math.fround(common / (a.size + b.size - common));
}

/** pg_trgm's similarity(a, b). */
export function similarity(a: string, b: string): number {
  return setSimilarity(trigrams(a), trigrams(b));
}
