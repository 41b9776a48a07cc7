/**
 * The near-miss guard of fuzzy matching (bank/guard.ts): which differences between a caller's title and
 * a stored one keep the question. differenceGuard prepares the query once for many stored titles and
 * must answer as benignDifference does; the cases below run through both.
 */
import { benignDifference, differenceGuard } from '../../../server/modules/ocs/bank/guard';
import { normalizeTitle } from '../../../server/modules/ocs/bank/normalize';

const n = normalizeTitle;
const stored = n('下列关于社会主义核心价值观的说法中，正确的是哪一项');

const cases: Array<[string, string, boolean]> = [
  ['identical', stored, true],
  ['a cut-off end', n('下列关于社会主义核心价值观的说法中，正确的是'), true],
  ['function words dropped', n('关于社会主义核心价值观说法正确的是哪一项'), true],
  ['an interchangeable wording', n('以下关于社会主义核心价值观的表述中，正确的是哪项'), true],
  ['a negation added', n('下列关于社会主义核心价值观的说法中，不正确的是哪一项'), false],
  ['a content character changed', n('下列关于社会主义核心价值论的说法中，正确的是哪一项'), false],
  ['a content character added', n('下列关于社会主义核心价值观念的说法中，正确的是哪一项'), false],
  ['a different entity', n('下列关于抗日民族统一战线的说法中，正确的是哪一项'), false],
];

describe('benignDifference', () => {
  it.each(cases)('%s', (_name, query, expected) => {
    expect(benignDifference(query, stored)).toBe(expected);
    expect(differenceGuard(query)(stored)).toBe(expected);
  });

  it('a changed number is never benign, a cut longer than a fifth of the title is not a cut-off end', () => {
    const withNumber = n('某企业2023年的营业收入为500万元，下列说法正确的是');
    expect(benignDifference(n('某企业2024年的营业收入为500万元，下列说法正确的是'), withNumber)).toBe(false);
    expect(benignDifference(n('某企业2023年的营业收入为5000万元，下列说法正确的是'), withNumber)).toBe(false);
    expect(benignDifference(n('某企业2023年的营业收入为500万元'), withNumber)).toBe(false);
  });

  it('one prepared query gives each stored title its own answer, in any order and repeatedly', () => {
    const query = n('关于社会主义核心价值观说法正确的是哪一项');
    const titles = cases.map(([, t]) => t);
    const guard = differenceGuard(query);
    const once = titles.map((t) => guard(t));
    expect(titles.map((t) => benignDifference(query, t))).toEqual(once);
    expect([...titles].reverse().map((t) => guard(t))).toEqual([...once].reverse());
    expect(titles.map((t) => guard(t))).toEqual(once);
    expect(once).toContain(true);
    expect(once).toContain(false);
  });

  it('empty titles and lone characters', () => {
    expect(benignDifference('', '')).toBe(true);
    expect(benignDifference('a', '')).toBe(false);
    expect(benignDifference('的', '')).toBe(true);
    expect(benignDifference('\ud800', '\ud800')).toBe(true);
  });
});
