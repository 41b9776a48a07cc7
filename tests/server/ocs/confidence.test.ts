/**
 * Provenance and confidence: what a bank row's source and status say, how a fuzzy match and
 * a 存疑 mark lower it, and the vote between sources — the answer they agree on wins over the first
 * or the most confident one, agreement raises the confidence and disagreement lowers it.
 */
import { provenanceOf } from '../../../server/modules/ocs/bank/question';
import { answerKey, bankConfidence, vote, type Candidate } from '../../../server/modules/ocs/query/confidence';

test('provenance of a bank row', () => {
  expect(provenanceOf('import', 'verified')).toBe('import');
  expect(provenanceOf('manual', 'verified')).toBe('verified');
  expect(provenanceOf('ai', 'unverified')).toBe('ai');
  expect(provenanceOf('ai', 'verified')).toBe('verified');
  expect(provenanceOf('corrected', 'verified')).toBe('corrected');
  expect(provenanceOf('upstream:甲', 'unverified')).toBe('upstream:甲');
  expect(provenanceOf('upstream:甲', 'verified')).toBe('verified');
});

test('a bank match: exact keeps the base, fuzzy and 存疑 lower it', () => {
  const m = { provenance: 'import', via: 'exact' as const, similarity: 1, disputed: false };
  expect(bankConfidence(m)).toBe(0.95);
  expect(bankConfidence({ ...m, via: 'fuzzy', similarity: 0.6 })).toBeCloseTo(0.95 * (0.85 + 0.15 * 0.6), 3);
  expect(bankConfidence({ ...m, disputed: true })).toBe(0.475);
  expect(bankConfidence({ ...m, provenance: 'upstream:x' })).toBe(0.8);
});

test('answers compare by option keys: order and punctuation do not matter for choices, order does for blanks', () => {
  expect(answerKey(['北京', '上海（市）'], true)).toBe(answerKey(['上海(市)', '北京'], true));
  expect(answerKey(['甲', '乙'], false)).not.toBe(answerKey(['乙', '甲'], false));
  // A piece given as a caller's labelled line is that option.
  expect(answerKey(['A. 北京', 'Ｂ．上海'], true)).toBe(answerKey(['上海', '北京'], true));
  // Code-like options keep their punctuation: two different options are two different answers.
  expect(answerKey(['int a; int b;'], true)).not.toBe(answerKey(['int a, int b;'], true));
});

test('the vote: agreement wins and raises the confidence, disagreement lowers it', () => {
  const c = (source: string, answer: string, confidence: number): Candidate => ({
    source,
    answer: [answer],
    confidence,
  });
  expect(vote([], true)).toBeNull();
  expect(vote([c('import', 'A', 0.95)], true)!.confidence).toBe(0.95);
  // A weak bank answer and an upstream agreeing: more sure than either.
  const agree = vote([c('ai', '北京', 0.7), c('upstream:x', '北京', 0.8)], true)!;
  expect(agree.confidence).toBeCloseTo(1 - 0.3 * 0.2, 3);
  expect(agree.dissenting).toEqual([]);
  // Two upstreams against the strongest single source: the two win.
  const split = vote([c('import', '上海', 0.95), c('upstream:a', '北京', 0.8), c('upstream:b', '北京', 0.8)], true)!;
  expect(split.agreeing.map((x) => x.source)).toEqual(['upstream:a', 'upstream:b']);
  expect(split.confidence).toBeCloseTo((1 - 0.04) * (1.6 / 2.55), 3);
  expect(split.dissenting.map((x) => x.source)).toEqual(['import']);
  // Equal weight: the group whose strongest source is stronger.
  expect(vote([c('ai', '甲', 0.7), c('upstream:a', '乙', 0.7)], true)!.agreeing[0]!.source).toBe('ai');
});
