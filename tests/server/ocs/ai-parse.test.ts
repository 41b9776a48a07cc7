/**
 * Model replies as models actually write them, turned into what the OCS script fills in, in terms
 * of the caller's option texts; ambiguous replies are refused rather than guessed.
 */
import { looseKey, parseAiReply, parseAnswerPieces } from '../../../server/modules/ocs/ai/parse';

const CAPITALS = ['北京', '上海', '广州', '深圳'];
const single = (reply: string, options = CAPITALS) => parseAiReply(reply, { type: 'single', options });
const multiple = (reply: string, options = CAPITALS) => parseAiReply(reply, { type: 'multiple', options });
const judgement = (reply: string, options: string[] = []) => parseAiReply(reply, { type: 'judgement', options });
const completion = (reply: string) => parseAiReply(reply, { type: 'completion', options: [] });
const any = (reply: string, options: string[] = []) => parseAiReply(reply, { type: 'any', options });

describe('looseKey', () => {
  test('folds width, case, whitespace and punctuation', () => {
    expect(looseKey('Ａ．ｐｐｌｅ， Pie！')).toBe(looseKey('a.pple,pie'));
    expect(looseKey(' “北京” 。')).toBe('北京');
  });
  test('an option of punctuation only still has a key', () => {
    expect(looseKey('…')).not.toBe('');
  });
});

describe('single choice', () => {
  test.each([
    'A',
    'a',
    'A.',
    'Ａ',
    'Ａ．',
    '答案：A',
    '答案是A。',
    'Answer: A',
    '选A',
    '(A)',
    '（A）',
    '【A】',
    'A项',
    '**A**',
    '`A`',
    '```\nA\n```',
    '  "A"  ',
    '北京',
    '“北京”',
    '北京。',
    '答案：北京',
    'A. 北京',
    'A、北京',
    'A：北京',
    '(A) 北京',
    '**答案：A. 北京**',
    '<think>B 和 C 都不对</think>A',
    'A\n解析：北京是中国的首都，上海不是。',
    '我认为答案是北京',
  ])('%j -> 北京', (reply) => {
    expect(single(reply)).toEqual({ answer: ['北京'] });
  });

  test('answers in the caller option texts, including their own spelling', () => {
    const options = ['Ｏｎｅ，two', 'three four'];
    expect(single('one, two', options)).toEqual({ answer: ['Ｏｎｅ，two'] });
    expect(single('B', options)).toEqual({ answer: ['three four'] });
  });

  test('a text that disagrees with its letter is taken by the text', () => {
    expect(single('A. 上海')).toEqual({ answer: ['上海'] });
  });

  test('the longer option wins when one contains another', () => {
    expect(single('北京市', ['北京', '北京市', '天津'])).toEqual({ answer: ['北京市'] });
    expect(single('北京', ['北京', '北京市', '天津'])).toEqual({ answer: ['北京'] });
  });

  test.each([
    ['AB', '多个'],
    ['A、C', '多个'],
    ['北京和上海', '多个'],
    ['选A或者选B', '多个'],
    ['E', '无法解析'],
    ['Z', '无法解析'],
    ['重庆', '无法解析'],
    ['我不知道', '无法解析'],
  ])('%j is refused (%s)', (reply, fragment) => {
    const r = single(reply);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toContain(fragment);
  });

  test.each(['', '   ', '```\n```', '**', '<think>hmm</think>'])('empty reply %j is refused', (reply) => {
    expect(single(reply)).toEqual({ error: 'AI 回复为空' });
  });

  test('no options at all cannot be answered as a choice', () => {
    expect(single('A', [])).toHaveProperty('error');
  });

  test('a letter pointing at a blank option is refused', () => {
    expect(single('B', ['北京', '  ', '上海'])).toHaveProperty('error');
    expect(single('C', ['北京', '  ', '上海'])).toEqual({ answer: ['上海'] });
  });
});

describe('multiple choice', () => {
  test.each([
    'ABD',
    'A,B,D',
    'A、B、D',
    'A#B#D',
    'A B D',
    'ＡＢＤ',
    'Ａ，Ｂ，Ｄ',
    '答案：ABD',
    '选ABD',
    '(A)(B)(D)',
    'DBA',
    'A#B#D#B',
    '北京#上海#深圳',
    '深圳#北京#上海',
    '北京\n上海\n深圳',
    '北京、上海、深圳',
    '北京,上海,深圳',
    '北京；上海；深圳',
    'A. 北京\nB. 上海\nD. 深圳',
    'A#上海#深圳',
    '**ABD**',
    'ABD\n解析：广州不是直辖市。',
  ])('%j -> 北京#上海#深圳', (reply) => {
    expect(multiple(reply)).toEqual({ answer: ['北京', '上海', '深圳'] });
  });

  test('follows the caller option order, whatever order the model used', () => {
    const shuffled = ['深圳', '广州', '北京', '上海'];
    expect(multiple('上海#深圳#北京', shuffled)).toEqual({ answer: ['深圳', '北京', '上海'] });
    expect(multiple('CDA', shuffled)).toEqual({ answer: ['深圳', '北京', '上海'] });
  });

  test('an option text containing a comma is not split apart', () => {
    const options = ['甲，乙', '丙', '丁'];
    expect(multiple('甲，乙#丁', options)).toEqual({ answer: ['甲，乙', '丁'] });
  });

  test('a single picked option is a valid answer', () => {
    expect(multiple('C')).toEqual({ answer: ['广州'] });
  });

  test('options containing `#` or `;` survive one answer a line', () => {
    expect(multiple('C#\nF#', ['C#', 'F#', 'Java'])).toEqual({ answer: ['C#', 'F#'] });
    expect(multiple('int a; int b;', ['int a; int b;', 'int a b;'])).toEqual({ answer: ['int a; int b;'] });
  });

  test.each(['A#重庆', '北京、重庆', 'ABF', '我不知道', 'A#B#解析：因为'])('%j is refused', (reply) => {
    const r = multiple(reply);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toContain('AI 回复无法解析为选项');
  });

  test('the error names the token that matched nothing', () => {
    expect(multiple('北京#重庆')).toEqual({ error: expect.stringContaining('重庆') });
  });
});

describe('judgement', () => {
  test.each([
    '对',
    '正确',
    '√',
    '✓',
    '✔',
    'true',
    'TRUE',
    'T',
    't',
    '是',
    'yes',
    'Yes',
    '正确。',
    '答案：正确',
    '“对”',
    '**正确**',
    '正确，因为地球绕太阳转。',
    '正确答案是正确',
  ])('%j -> 正确', (reply) => {
    expect(judgement(reply)).toEqual({ answer: ['正确'] });
  });

  test.each(['错', '错误', '×', '✗', 'false', 'F', '否', 'no', 'NO', '不正确', '错误。原因如下', '答案：错'])(
    '%j -> 错误',
    (reply) => {
      expect(judgement(reply)).toEqual({ answer: ['错误'] });
    },
  );

  test('letters are read through the caller options, and the answer is still 正确/错误', () => {
    expect(judgement('A', ['对', '错'])).toEqual({ answer: ['正确'] });
    expect(judgement('B', ['对', '错'])).toEqual({ answer: ['错误'] });
    expect(judgement('B', ['√', '×'])).toEqual({ answer: ['错误'] });
    expect(judgement('对', ['对', '错'])).toEqual({ answer: ['正确'] });
  });

  test.each(['也许', '不确定', 'maybe', 'C', '正确或错误都有可能吧'])('%j is refused', (reply) => {
    expect(judgement(reply, ['对', '错'])).toEqual({ error: expect.stringContaining('正确') });
  });
});

describe('completion', () => {
  test.each([
    ['北京#上海', '北京#上海'],
    ['北京\n上海', '北京#上海'],
    ['北京；上海', '北京#上海'],
    ['北京;上海', '北京#上海'],
    ['  北京 #  上海  ', '北京#上海'],
    ['1. 北京\n2. 上海', '北京#上海'],
    ['1、北京\n2、上海', '北京#上海'],
    ['(1) 北京\n(2) 上海', '北京#上海'],
    ['（1）北京；（2）上海', '北京#上海'],
    ['第1空：北京\n第2空：上海', '北京#上海'],
    ['第一空：北京\n第二空：上海', '北京#上海'],
    ['①北京②', '北京②'],
    ['答案：北京#上海', '北京#上海'],
    ['```\n北京#上海\n```', '北京#上海'],
    ['北京\n\n上海', '北京#上海'],
    ['3.14', '3.14'],
    ['1:2', '1:2'],
    ['x²+1', 'x²+1'],
    ['“光合作用”。', '光合作用'],
  ])('%j -> %j', (reply, answer) => {
    expect(completion(reply)).toEqual({ answer: answer.split('#') });
  });

  test('one blank a line keeps a `#` or `;` inside a blank', () => {
    expect(completion('C#\nF#')).toEqual({ answer: ['C#', 'F#'] });
    expect(completion('a;b\nc#d')).toEqual({ answer: ['a;b', 'c#d'] });
  });

  test.each(['', '  \n ', '#', '# ；\n', '1.'])('%j is refused', (reply) => {
    expect(completion(reply)).toHaveProperty('error');
  });
});

describe('any', () => {
  test('without options returns the trimmed text', () => {
    expect(any('  光合作用  ')).toEqual({ answer: ['光合作用'] });
    expect(any('答案：光合作用')).toEqual({ answer: ['光合作用'] });
  });

  test('with options, one match reads as single, several as multiple', () => {
    expect(any('B', CAPITALS)).toEqual({ answer: ['上海'] });
    expect(any('我认为是上海', CAPITALS)).toEqual({ answer: ['上海'] });
    expect(any('BD', CAPITALS)).toEqual({ answer: ['上海', '深圳'] });
    expect(any('深圳#上海', CAPITALS)).toEqual({ answer: ['上海', '深圳'] });
  });

  test('with options and nothing resolving is refused', () => {
    expect(any('重庆', CAPITALS)).toHaveProperty('error');
  });

  test('empty is refused', () => {
    expect(any('   ')).toEqual({ error: 'AI 回复为空' });
  });
});

describe('an upstream bank answer already in pieces', () => {
  const q = (type: 'single' | 'multiple' | 'completion' | 'judgement', options: string[] = []) => ({ type, options });
  test('each piece names an option, whatever it contains', () => {
    expect(parseAnswerPieces(['F#', 'C#'], q('multiple', ['C#', 'F#', 'Java']))).toEqual({ answer: ['C#', 'F#'] });
    expect(parseAnswerPieces(['int a; int b;'], q('single', ['int a; int b;', 'int a b;']))).toEqual({
      answer: ['int a; int b;'],
    });
  });
  test('a piece that names no option refuses the whole answer; one piece is read as a reply', () => {
    expect(parseAnswerPieces(['C#', 'Rust'], q('multiple', ['C#', 'F#']))).toHaveProperty('error');
    expect(parseAnswerPieces(['A', 'B'], q('single', ['北京', '上海']))).toHaveProperty('error');
    expect(parseAnswerPieces(['B'], q('single', ['北京', '上海']))).toEqual({ answer: ['上海'] });
  });
  test('blanks are the pieces in order; a judgement is one piece', () => {
    expect(parseAnswerPieces(['<=', 'a;b'], q('completion'))).toEqual({ answer: ['<=', 'a;b'] });
    expect(parseAnswerPieces(['对'], q('judgement'))).toEqual({ answer: ['正确'] });
    expect(parseAnswerPieces(['对', '错'], q('judgement'))).toHaveProperty('error');
  });
});
