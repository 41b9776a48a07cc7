/**
 * The fuzzy candidate search (bank/fuzzy-index.ts): its shortcuts (only the rarest lists bring in ids,
 * the longest only add to their counts; ids counted one block at a time) give exactly the candidates
 * of counting every id of every list in one pass.
 */
import { buildPerturbationSet, generateQuestions, mulberry32 } from '../../../bench/ocs/synthetic';
import { BLOCK, FuzzyIndex } from '../../../server/modules/ocs/bank/fuzzy-index';
import { normalizeTitle } from '../../../server/modules/ocs/bank/normalize';

const bank = [...generateQuestions(30_000, 17)];
const index = new FuzzyIndex();
// Ids spread over 1.1M, as in a bank with deleted rows: the blocked count crosses ~68 block boundaries.
bank.forEach((q, i) => index.insert(i * 37 + 1, normalizeTitle(q.title)));
index.compact();

test('perturbed, cut-off and unrelated queries: the same candidates as counting everything', () => {
  const queries = [
    ...buildPerturbationSet(bank, 40, 9).map((p) => p.query.title),
    ...bank.slice(0, 100).map((q) => q.title),
    ...[...generateQuestions(100, 99)].map((q) => q.title),
  ].map(normalizeTitle);
  let nonEmpty = 0;
  for (const opts of [{}, { rarest: 4 }, { budget: 3_000 }, { limit: 3 }, { rarest: 12, budget: 60_000 }]) {
    for (const q of queries) {
      const fast = index.candidates(q, opts);
      const reference = index.candidates(q, { ...opts, shortcuts: false, blocked: false });
      expect({ q, opts, ids: fast }).toEqual({ q, opts, ids: reference });
      expect({ q, opts, ids: index.candidates(q, { ...opts, blocked: false }) }).toEqual({ q, opts, ids: reference });
      expect({ q, opts, ids: index.candidates(q, { ...opts, shortcuts: false }) }).toEqual({ q, opts, ids: reference });
      if (fast.length > 0) nonEmpty++;
    }
  }
  expect(nonEmpty).toBeGreaterThan(queries.length * 3);
});

test('lists that are not ascending (a row re-indexed under a new title) are counted in full', () => {
  const small = new FuzzyIndex();
  const rnd = mulberry32(3);
  const words = ['细胞膜', '磷脂', '蛋白质', '支架', '作用', '成分', '主要', '哪一种', '结构', '功能'];
  const title = () => Array.from({ length: 8 }, () => words[Math.floor(rnd() * words.length)]).join('');
  for (let id = 1; id <= 400; id++) small.insert(id, title());
  // Re-indexing low ids with new titles appends them out of order.
  for (let id = 1; id <= 40; id++) small.insert(id, title());
  for (let k = 0; k < 100; k++) {
    const q = title();
    expect(small.candidates(q)).toEqual(small.candidates(q, { shortcuts: false, blocked: false }));
  }
});

test('ids on both sides of every block boundary of the blocked count are counted', () => {
  const small = new FuzzyIndex();
  const ids: number[] = [];
  for (let k = 1; k <= 6; k++) ids.push(k * BLOCK - 1, k * BLOCK, k * BLOCK + 1);
  ids.forEach((id, i) => small.insert(id, `细胞膜的主要成分是磷脂和蛋白质${'甲乙丙丁戊己庚辛壬癸'[i % 10]}`));
  const q = normalizeTitle('细胞膜的主要成分是磷脂和蛋白质');
  const found = small.candidates(q, { limit: 50 });
  expect([...found].sort((a, b) => a - b)).toEqual(ids);
  expect(found).toEqual(small.candidates(q, { limit: 50, blocked: false }));
});

describe('shortlists', () => {
  const accept = (norm: string) => (title: string) => title.length >= norm.length;

  test('are the candidates whose titles pass, best first, at most max', () => {
    const queries = buildPerturbationSet(bank, 40, 5).map((p) => normalizeTitle(p.query.title));
    let nonEmpty = 0;
    for (const q of queries) {
      const passes = accept(q);
      const expected = index
        .candidates(q)
        .filter((id) => passes(index.title(id)!))
        .slice(0, 3);
      expect({ q, ids: index.shortlist(q, accept, 3) }).toEqual({ q, ids: expected });
      if (expected.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(queries.length / 2);
  });

  test('are searched once per query and max until the index changes', () => {
    const small = new FuzzyIndex();
    small.insert(1, normalizeTitle('细胞膜的主要成分是磷脂和蛋白质以及少量的糖类'));
    small.insert(2, normalizeTitle('细胞壁的主要成分是纤维素和果胶'));
    const q = normalizeTitle('细胞膜的主要成分是磷脂和蛋白质以及少量的');
    const search = jest.spyOn(small, 'candidates');
    const factory = jest.fn(accept);
    expect(small.shortlist(q, factory, 4)).toEqual([1]);
    expect(small.shortlist(q, factory, 4)).toEqual([1]);
    expect(search).toHaveBeenCalledTimes(1);
    expect(factory).toHaveBeenCalledTimes(1);
    // Another max is another shortlist.
    expect(small.shortlist(q, factory, 1)).toEqual([1]);
    expect(search).toHaveBeenCalledTimes(2);

    // The same title indexed again changes nothing: still remembered.
    small.insert(1, normalizeTitle('细胞膜的主要成分是磷脂和蛋白质以及少量的糖类'));
    expect(small.shortlist(q, factory, 4)).toEqual([1]);
    expect(search).toHaveBeenCalledTimes(2);

    // A new title that shares the query: searched again, and found.
    small.insert(3, normalizeTitle('细胞膜的主要成分是磷脂和蛋白质以及少量的胆固醇'));
    expect(small.shortlist(q, factory, 4)).toEqual([1, 3]);
    // A title changed so that it no longer passes: searched again, and gone.
    small.insert(1, normalizeTitle('细胞膜'));
    expect(small.shortlist(q, factory, 4)).toEqual([3]);
    expect(search).toHaveBeenCalledTimes(4);
  });
});
