/**
 * The in-memory similarity (bank/trigram.ts) against the database's own pg_trgm similarity(): the
 * same float4 for every pair, on PGlite and (TEST_DATABASE_URL) on PostgreSQL. The pairs are what the
 * fuzzy path scores (a perturbed query against its source, and against unrelated titles) plus the
 * awkward cases: empty, one character, digits with a decimal point or a sign, symbols, Latin mixed with
 * CJK, astral characters, kana and hangul, upper case.
 */
import { sql } from 'kysely';
import { buildPerturbationSet, generateQuestions } from '../../../bench/ocs/synthetic';
import { normalizeTitle } from '../../../server/modules/ocs/bank/normalize';
import sampleBank from '../../../server/modules/ocs/bank/sample-bank.json';
import { similarity, trigrams } from '../../../server/modules/ocs/bank/trigram';
import { openTestDatabase, type TestDatabase } from '../helpers';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

async function dbSimilarity(pairs: Array<[string, string]>): Promise<number[]> {
  const r = await sql<{ s: number }>`
    select similarity(a, b) as s
    from unnest(${pairs.map((p) => p[0])}::text[], ${pairs.map((p) => p[1])}::text[]) with ordinality as x(a, b, n)
    order by n`.execute(t.db);
  // float4 comes back as its shortest decimal text: back to the float4 it names.
  return r.rows.map((row) => Math.fround(Number(row.s)));
}

const bank = [...generateQuestions(2_000, 11)];
const perturbed = buildPerturbationSet(bank, 40, 5);
const sampleTitles = (sampleBank as { questions: Array<{ title: string }> }).questions.map((q) =>
  normalizeTitle(q.title),
);

const awkward: Array<[string, string]> = [
  ['', ''],
  ['', '中'],
  ['中', '中'],
  ['a', 'a'],
  ['a', 'b'],
  ['1.5', '1.50'],
  ['-3', '3'],
  ['x+y=z', 'x+y=2'],
  ['3×4=12', '3×4=13'],
  ['abc中文def', 'abc中文'],
  ['ABC中文', 'abc中文'],
  ['😀北京是首都😀', '北京是首都'],
  ['𠀀𠀁𠀂汉字', '𠀀𠀁汉字'],
  ['ひらがなとカタカナ', 'ひらがなカタカナ'],
  ['한국어문제입니다', '한국어문제'],
  ['水的化学式是h2o', '水的化学式是h2o2'],
  ['α粒子和β粒子', 'α粒子β粒子'],
  ["'; drop table x; --", 'drop table x'],
  ['..', '--'],
];

describe('trigram similarity', () => {
  it('lists the trigrams pg_trgm would, for single-byte text', async () => {
    const r = await sql<{ t: string[] }>`select show_trgm('ab.12-3x+y') as t`.execute(t.db);
    expect([...trigrams('ab.12-3x+y')].sort()).toEqual([...r.rows[0]!.t].sort());
  });

  it('equals the database similarity() on perturbed queries, their sources and unrelated titles', async () => {
    const pairs: Array<[string, string]> = [];
    perturbed.forEach((p, i) => {
      const q = normalizeTitle(p.query.title);
      pairs.push([q, normalizeTitle(p.source.title)]);
      pairs.push([q, normalizeTitle(bank[(i * 37) % bank.length]!.title)]);
    });
    for (let i = 0; i + 1 < sampleTitles.length; i += 2) pairs.push([sampleTitles[i]!, sampleTitles[i + 1]!]);
    expect(pairs.length).toBeGreaterThan(400);
    const want = await dbSimilarity(pairs);
    const got = pairs.map(([a, b]) => similarity(a, b));
    const differing = pairs.flatMap((p, i) => (got[i] === want[i] ? [] : [{ p, got: got[i], want: want[i] }]));
    expect(differing).toEqual([]);
    // Not a trivial agreement: the pairs span the range.
    expect(Math.min(...want)).toBeLessThan(0.2);
    expect(want.filter((s) => s > 0.5 && s < 1).length).toBeGreaterThan(50);
  });

  it('equals the database similarity() on the awkward cases', async () => {
    const want = await dbSimilarity(awkward);
    expect(awkward.map(([a, b]) => similarity(a, b))).toEqual(want);
  });
});
