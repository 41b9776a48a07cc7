/**
 * The fuzzy candidate search (bank/fuzzy-index.ts): its shortcut (only the rarest lists bring in ids,
 * the longest only add to their counts) gives exactly the candidates of counting every id of every list.
 */
import { buildPerturbationSet, generateQuestions, mulberry32 } from '../../../bench/ocs/synthetic';
import { FuzzyIndex } from '../../../server/modules/ocs/bank/fuzzy-index';
import { normalizeTitle } from '../../../server/modules/ocs/bank/normalize';

const bank = [...generateQuestions(30_000, 17)];
const index = new FuzzyIndex();
bank.forEach((q, i) => index.insert(i + 1, normalizeTitle(q.title)));
index.compact();

test('perturbed, cut-off and unrelated queries: the same candidates as counting everything', () => {
  const queries = [
    ...buildPerturbationSet(bank, 60, 9).map((p) => p.query.title),
    ...bank.slice(0, 200).map((q) => q.title),
    ...[...generateQuestions(200, 99)].map((q) => q.title),
  ].map(normalizeTitle);
  let nonEmpty = 0;
  for (const opts of [{}, { rarest: 4 }, { budget: 3_000 }, { limit: 3 }, { rarest: 12, budget: 60_000 }]) {
    for (const q of queries) {
      const fast = index.candidates(q, opts);
      expect({ q, opts, ids: fast }).toEqual({ q, opts, ids: index.candidates(q, { ...opts, shortcuts: false }) });
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
    expect(small.candidates(q)).toEqual(small.candidates(q, { shortcuts: false }));
  }
});
