/**
 * prefixUpperBound (server/lib/sql.ts): `s ~>=~ p and s ~<~ bound` must select exactly the strings that
 * start with p, in the database's own byte order (text_pattern_ops), for awkward prefixes too — LIKE
 * wildcards, backslashes, CJK, astral characters, the last code point before the surrogates and the
 * last code point of all. Checked on the real database (PGlite here, PostgreSQL in that leg).
 */
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../../server/db/database';
import { prefixUpperBound } from '../../../server/lib/sql';
import { mulberry32 } from '../../../bench/lib/random';

let database: Database;
beforeAll(async () => {
  database = await openDatabase(process.env.TEST_DATABASE_URL ? { url: process.env.TEST_DATABASE_URL } : {});
});
afterAll(() => database.close());

test('the bound of a prefix: the last character raised by one, skipping the surrogates', () => {
  expect(prefixUpperBound('2021')).toBe('2022');
  expect(prefixUpperBound('zh')).toBe('zi');
  expect(prefixUpperBound('a%')).toBe('a&');
  expect(prefixUpperBound('张')).toBe(String.fromCodePoint('张'.codePointAt(0)! + 1));
  expect(prefixUpperBound('x\u{d7ff}')).toBe('x\u{e000}');
  expect(prefixUpperBound('ab\u{10ffff}')).toBe('ac');
  expect(prefixUpperBound('😀')).toBe('😁');
  expect(prefixUpperBound('\u{10ffff}\u{10ffff}')).toBeNull();
  expect(prefixUpperBound('')).toBeNull();
});

const ALPHABET = [
  '0',
  '1',
  '9',
  'a',
  'z',
  '%',
  '_',
  '\\',
  ' ',
  '~',
  '张',
  '三',
  '\u{d7ff}',
  '\u{e000}',
  '😀',
  '\u{10ffff}',
];

function randomString(next: () => number, max: number): string {
  const n = Math.floor(next() * (max + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return s;
}

test('the range selects exactly the strings that start with the prefix, in the database', async () => {
  const next = mulberry32(20261125);
  const strings = Array.from({ length: 400 }, () => randomString(next, 5));
  const prefixes = [
    ...Array.from({ length: 60 }, () => randomString(next, 3)).filter((p) => p !== ''),
    ...strings.slice(0, 40).map((s) => Array.from(s).slice(0, 2).join('')),
  ].filter((p) => prefixUpperBound(p) !== null);
  expect(prefixes.length).toBeGreaterThan(60);
  for (const p of prefixes) {
    const bound = prefixUpperBound(p)!;
    const { rows } = await sql<{ s: string }>`
      select s from unnest(${strings}::text[]) as t(s)
      where s ~>=~ ${p} and s ~<~ ${bound}
      order by s collate "C"`.execute(database.db);
    const expected = [...new Set(strings.filter((s) => s.startsWith(p)))].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
    );
    const got = [...new Set(rows.map((r) => r.s))];
    expect({ p, got }).toEqual({ p, got: expected });
  }
});
