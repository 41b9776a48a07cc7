/**
 * Matching quality on a synthetic bank: every reformatting kind is found with the right answer in the
 * caller's options, and near misses (another number, a negation, another entity, an unrelated
 * question) are never answered. Also the normalization rules one by one.
 */
import { measureQuality, qualityTable } from '../../../bench/ocs/quality';
import { buildPerturbationSet, generateQuestions } from '../../../bench/ocs/synthetic';
import { prepareQuestion, type PreparedQuestion } from '../../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../../server/modules/ocs/bank/store';
import { FuzzyIndex } from '../../../server/modules/ocs/bank/fuzzy-index';
import { cleanTitle, normalizeTitle, splitOptions } from '../../../server/modules/ocs/bank/normalize';
import { DEFAULT_SETTINGS } from '../../../server/modules/ocs/admin/settings';
import { openTestDatabase, type TestDatabase } from '../helpers';

let tdb: TestDatabase;
const index = new FuzzyIndex();
const bank = [...generateQuestions(4000, 11)];

beforeAll(async () => {
  tdb = await openTestDatabase();
  const prepared = bank.map((q) => prepareQuestion(q) as PreparedQuestion);
  const r = await upsertQuestions(tdb.db, prepared, 'import');
  for (const row of r.rows) index.add(row.id, row.norm_title);
}, 60_000);
afterAll(async () => {
  await tdb.close();
});

test('normalization: width, punctuation, spaces, HTML, numbering and tags do not change the key', () => {
  const key = normalizeTitle('下列哪个城市是中国的首都？');
  for (const variant of [
    '下列哪个城市是中国的首都?',
    '下列哪个城市是中国的首都',
    ' 下列 哪个城市\t是中国的首都 ？ ',
    '<p><span style="color:red">下列哪个城市是中国的首都</span>？</p>',
    '1. 下列哪个城市是中国的首都？',
    '（12）下列哪个城市是中国的首都？',
    '【单选题】下列哪个城市是中国的首都？',
    '第3题 下列哪个城市是中国的首都（2分）',
    '下列哪个城市是中国的首都&nbsp;？',
  ]) {
    expect({ variant, key: normalizeTitle(variant) }).toEqual({ variant, key });
  }
  // Digits, decimals and signs are part of the question.
  expect(normalizeTitle('3.14 约等于多少')).not.toBe(normalizeTitle('314 约等于多少'));
  expect(normalizeTitle('计算 -5 的绝对值')).not.toBe(normalizeTitle('计算 5 的绝对值'));
  expect(normalizeTitle('ＡＢＣ１２３')).toBe('abc123');
  expect(cleanTitle('<b>1.</b> 题目&amp;内容')).toBe('题目&内容');
});

test('options: letter prefixes go, a letter that belongs to the text stays', () => {
  expect(splitOptions('A. 北京\nB、上海\nC:广州\n(D)深圳')).toEqual(['北京', '上海', '广州', '深圳']);
  expect(splitOptions(['A 型血', 'B 型血', 'AB 型血'])).toEqual(['A 型血', 'B 型血', 'AB 型血']);
  expect(splitOptions('A A型血\nB B型血')).toEqual(['A型血', 'B型血']);
  expect(splitOptions('')).toEqual([]);
});

test('perturbation set: reformatted questions are found with the right answer, near misses never answered', async () => {
  const set = buildPerturbationSet(bank, 80, 5);
  const { byKind, failures } = await measureQuality(tdb.db, index, set, DEFAULT_SETTINGS.fuzzyThreshold);
  console.log(`matching quality (4,000-question bank, 80 per kind)\n${qualityTable(byKind)}`);
  const total = byKind.reduce((a, s) => a + s.total, 0);
  const wrong = byKind.reduce((a, s) => a + s.wrong, 0);
  expect({ wrong, examples: failures.filter((f) => f.got !== null).slice(0, 5) }).toEqual({ wrong: 0, examples: [] });
  expect(total).toBeGreaterThan(900);
  for (const s of byKind) {
    const rate = s.hit / s.total;
    // Reformatting kinds normalize to the exact key; the fuzzy kinds are allowed a few misses.
    const floor = s.kind === 'truncate' || s.kind === 'typo' ? 0.9 : 0.98;
    expect({ kind: s.kind, ok: rate >= floor, rate }).toEqual({ kind: s.kind, ok: true, rate });
  }
}, 120_000);
