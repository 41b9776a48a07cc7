/**
 * The synthetic bank behind the OCS benchmark and matching-quality tests: deterministic, distinct
 * titles, the promised type mix and answer shapes, and perturbations whose near misses can never
 * be found in a generated bank.
 */
import {
  BANK_VOCABULARY,
  PERTURBATION_KINDS,
  RESERVED,
  buildPerturbationSet,
  generateQuestions,
  maxQuestions,
  mulberry32,
  perturb,
  toOcsOptions,
  vocabularyProblems,
  type SyntheticQuestion,
} from '../../../bench/ocs/synthetic';

const take = (count: number, seed?: number) => [...generateQuestions(count, seed)];
const bank = take(20_000);
const bankTitles = new Set(bank.map((q) => q.title));
// Loose key: what any reasonable normalizer would at least strip.
const loose = (s: string) => s.normalize('NFKC').replace(/[\p{P}\p{Z}\s]+/gu, '');
const bankKeys = new Set(bank.map((q) => loose(q.title)));
const PREFIXED = /^(?:[A-Z]\. |[A-Z]、|[A-Z]:|\([A-Z]\))/;
const unprefix = (o: string) => o.replace(PREFIXED, '');

describe('generateQuestions', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(take(100, 1)).toEqual(take(100, 1));
    expect(take(100)).toEqual(take(100, 1));
    const other = take(100, 2);
    expect(other.filter((q, i) => q.title === bank[i]!.title).length).toBeLessThan(5);
  });

  it('produces 200,000 distinct titles', () => {
    const seen = new Set<string>();
    for (const q of generateQuestions(200_000, 3)) seen.add(q.title);
    expect(seen.size).toBe(200_000);
    // The construction guarantees distinct titles far beyond the 1M benchmark.
    expect(maxQuestions()).toBeGreaterThan(10_000_000);
  });

  it('mixes types 40/25/20/15 and keeps titles in a realistic length range', () => {
    const share = (type: string) => (100 * bank.filter((q) => q.type === type).length) / bank.length;
    expect(Math.abs(share('single') - 40)).toBeLessThanOrEqual(5);
    expect(Math.abs(share('multiple') - 25)).toBeLessThanOrEqual(5);
    expect(Math.abs(share('judgement') - 20)).toBeLessThanOrEqual(5);
    expect(Math.abs(share('completion') - 15)).toBeLessThanOrEqual(5);
    const lengths = bank.map((q) => q.title.length).sort((a, b) => a - b);
    expect(lengths[Math.floor(lengths.length * 0.05)]).toBeGreaterThanOrEqual(15);
    expect(lengths[Math.floor(lengths.length * 0.9)]).toBeLessThanOrEqual(60);
    expect(lengths[lengths.length - 1]).toBeGreaterThan(60);
  });

  it('gives choice questions 4–6 distinct options containing their answers', () => {
    const choice = bank.filter((x) => x.type === 'single' || x.type === 'multiple');
    // Plain checks, then one assertion: 13,000 questions × several expect() calls take seconds.
    const bad = choice.filter(
      (q) =>
        q.options.length < 4 ||
        q.options.length > 6 ||
        new Set(q.options).size !== q.options.length ||
        q.options.some((o) => o.length === 0 || PREFIXED.test(o)) ||
        q.answer.some((a) => !q.options.includes(a)) ||
        new Set(q.answer).size !== q.answer.length ||
        (q.type === 'single' ? q.answer.length !== 1 : q.answer.length < 2),
    );
    expect(bad).toEqual([]);
    expect(choice.some((q) => q.options.length === 6)).toBe(true);
    expect(choice.some((q) => q.type === 'multiple' && q.answer.length === q.options.length)).toBe(true);
  });

  it('shapes judgement and completion answers', () => {
    const judgements = bank.filter((x) => x.type === 'judgement');
    expect(judgements.filter((q) => q.options.length || !['正确', '错误'].includes(q.answer.join()))).toEqual([]);
    expect(judgements.filter((q) => q.answer[0] === '正确').length / judgements.length).toBeCloseTo(0.5, 1);
    const completions = bank.filter((x) => x.type === 'completion');
    const bad = completions.filter((q) => {
      const blanks = q.title.match(/_{4,}|（ ）/g) ?? [];
      return q.options.length || !blanks.length || q.answer.length !== blanks.length || q.answer.some((a) => !a);
    });
    expect(bad).toEqual([]);
    expect(completions.some((q) => q.answer.length === 2)).toBe(true);
  });

  it('never uses reserved vocabulary, 不/错误 or reserved numbers in a bank title', () => {
    expect(vocabularyProblems()).toEqual([]);
    expect(RESERVED.terms.length).toBeGreaterThan(50);
    expect(BANK_VOCABULARY.terms.length).toBeGreaterThan(250);
    const reserved = [...RESERVED.terms, ...RESERVED.places, ...RESERVED.givenNames, ...RESERVED.subjects];
    expect(bank.filter((q) => /不|错误/.test(q.title))).toEqual([]);
    const numbers = bank.flatMap((q) => (q.title.match(/\d+/g) ?? []).map(Number));
    expect(numbers.length).toBeGreaterThan(bank.length / 2);
    expect(numbers.filter(RESERVED.isNumber)).toEqual([]);
    const anyReserved = new RegExp(reserved.join('|'));
    expect(bank.filter((q) => anyReserved.test(q.title))).toEqual([]);
  });
});

describe('perturb', () => {
  const set = buildPerturbationSet(bank, 150);

  it('covers every kind with the expected outcome and OCS-style options', () => {
    for (const kind of PERTURBATION_KINDS) {
      const entries = set.filter((e) => e.kind === kind);
      expect(entries).toHaveLength(150);
      const miss = kind.startsWith('near_') || kind === 'unrelated';
      expect(entries.every((e) => e.query.expect === (miss ? 'miss' : 'hit'))).toBe(true);
      if (kind !== 'width') {
        for (const e of entries) expect(e.query.options.every((o) => PREFIXED.test(o))).toBe(true);
      }
    }
    const unknown = set.filter((e) => e.query.type !== e.source.type);
    expect(unknown.every((e) => ['unknown', 'line', 'reader'].includes(e.query.type))).toBe(true);
    expect(unknown.length / set.length).toBeGreaterThan(0.05);
    expect(unknown.length / set.length).toBeLessThan(0.15);
  });

  it('changes the title for every kind but shuffle, which reorders the options', () => {
    for (const { kind, source, query } of set) {
      if (kind === 'shuffle') {
        expect(query.title).toBe(source.title);
        const sent = query.options.map(unprefix);
        expect(sent).not.toEqual(source.options);
        expect([...sent].sort()).toEqual([...source.options].sort());
      } else {
        expect(query.title).not.toBe(source.title);
      }
      if (kind === 'truncate') {
        expect(source.title.startsWith(query.title)).toBe(true);
        expect(source.title.length - query.title.length).toBeGreaterThanOrEqual(1);
        expect(source.title.length - query.title.length).toBeLessThanOrEqual(3);
      }
      if (kind === 'near_entity' || kind === 'near_negation' || kind === 'near_number') {
        expect(query.options.map(unprefix)).toEqual(source.options);
      }
    }
  });

  it('keeps the question text for formatting-only kinds', () => {
    for (const { kind, source, query } of set) {
      if (kind === 'width' || kind === 'punctuation' || kind === 'spaces') {
        // Only width, punctuation and spacing differ, and a trailing mark may come or go.
        expect(loose(query.title)).toBe(loose(source.title));
      }
      if (kind === 'prefix' || kind === 'score') expect(query.title).toContain(source.title);
      if (kind === 'html') expect(query.title).toMatch(/^<(p|div|span)/);
    }
  });

  it('builds near misses and unrelated questions that are in no bank', () => {
    const misses = set.filter((e) => e.query.expect === 'miss');
    expect(misses.length).toBe(4 * 150);
    for (const { query } of misses) {
      expect(bankTitles.has(query.title)).toBe(false);
      expect(bankKeys.has(loose(query.title))).toBe(false);
    }
    for (const { query } of set.filter((e) => e.kind === 'near_negation')) expect(query.title).toMatch(/不|错误/);
    for (const { source, query } of set.filter((e) => e.kind === 'near_number')) {
      const before = source.title.match(/\d+/g)!;
      const after = query.title.match(/\d+/g)!;
      expect(after.filter((n) => !before.includes(n)).every((n) => RESERVED.isNumber(Number(n)))).toBe(true);
    }
    // A second, independent bank (another seed) does not contain them either.
    const other = new Set(take(20_000, 99).map((q) => loose(q.title)));
    expect(misses.filter((e) => other.has(loose(e.query.title)))).toEqual([]);
  });

  it('falls back sensibly when a kind does not apply', () => {
    const rnd = mulberry32(5);
    const judgement = bank.find((q) => q.type === 'judgement')!;
    expect(perturb(judgement, 'shuffle', rnd).options).toEqual([]);
    const noNumber = bank.find((q) => !/\d/.test(q.title))!;
    const q = perturb(noNumber, 'near_number', rnd);
    expect(q.expect).toBe('miss');
    expect(RESERVED.terms.some((t) => q.title.includes(t))).toBe(true);
    const short: SyntheticQuestion = {
      title: '下列说法正确的是',
      type: 'single',
      options: ['甲', '乙'],
      answer: ['甲'],
    };
    expect(perturb(short, 'truncate', rnd).title).not.toBe(short.title);
  });

  it('letters options in the four prefix styles', () => {
    expect(toOcsOptions(['甲', '乙'])).toEqual(['A. 甲', 'B. 乙']);
    expect(toOcsOptions(['甲', '乙'], 'dun')).toEqual(['A、甲', 'B、乙']);
    expect(toOcsOptions(['甲'], 'colon')).toEqual(['A:甲']);
    expect(toOcsOptions(['甲'], 'paren')).toEqual(['(A)甲']);
  });
});
