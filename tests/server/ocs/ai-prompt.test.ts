/**
 * Prompt templates: the defaults ask for the format the parser reads, rendering substitutes once
 * (user text is never re-expanded), and user templates are checked before they are saved.
 */
import {
  DEFAULT_PROMPT_TEMPLATES,
  PROMPT_TYPE_LABELS as TYPE_LABELS,
  renderPrompt,
  validateTemplate,
  type PromptType,
} from '../../../src/contract';

const TYPES: PromptType[] = ['single', 'multiple', 'judgement', 'completion', 'any'];

describe('default templates', () => {
  test.each(TYPES)('%s uses every placeholder, passes validation and asks for the answer only', (type) => {
    const t = DEFAULT_PROMPT_TEMPLATES[type];
    expect(t).toContain('${title}');
    expect(t).toContain('${type}');
    expect(t).toContain('${options}');
    expect(validateTemplate(t)).toBeNull();
    expect(t).toMatch(/不要输出.*解释/);
  });

  test('each type asks for its own answer format', () => {
    expect(DEFAULT_PROMPT_TEMPLATES.single).toContain('完整文字内容');
    expect(DEFAULT_PROMPT_TEMPLATES.multiple).toContain('每个答案单独一行');
    expect(DEFAULT_PROMPT_TEMPLATES.judgement).toContain('正确');
    expect(DEFAULT_PROMPT_TEMPLATES.judgement).toContain('错误');
    expect(DEFAULT_PROMPT_TEMPLATES.completion).toContain('每个空的答案单独一行');
  });

  test('type labels are Chinese names', () => {
    expect(TYPE_LABELS).toEqual({
      single: '单选题',
      multiple: '多选题',
      judgement: '判断题',
      completion: '填空题',
      any: '未知题型',
    });
  });
});

describe('renderPrompt', () => {
  test('substitutes title, Chinese type name and lettered options, every occurrence', () => {
    const out = renderPrompt('${type}|${title}|${title}\n${options}', {
      title: '中国的首都是？',
      type: 'single',
      options: ['北京', '上海', '广州'],
    });
    expect(out).toBe('单选题|中国的首都是？|中国的首都是？\nA. 北京\nB. 上海\nC. 广州');
  });

  test('a title containing placeholders stays literal', () => {
    const out = renderPrompt('题目：${title}\n${options}', {
      title: '看 ${options} 和 ${type} 以及 $& $1 $$',
      type: 'multiple',
      options: ['甲 ${title}', '乙'],
    });
    expect(out).toBe('题目：看 ${options} 和 ${type} 以及 $& $1 $$\nA. 甲 ${title}\nB. 乙');
  });

  test('unknown placeholders and near-misses are left as written', () => {
    const out = renderPrompt('${foo} $title {title} ${ title } ${title}', { title: 'T', type: 'any', options: [] });
    expect(out).toBe('${foo} $title {title} ${ title } T');
  });

  test('no options renders a visible placeholder instead of an empty line', () => {
    const out = renderPrompt('${options}', { title: 'x', type: 'completion', options: [] });
    expect(out).toBe('（无）');
  });

  test('unicode survives untouched', () => {
    const title = '𠮷野家 😀 Ａ？ café';
    expect(renderPrompt('${title}', { title, type: 'any', options: [] })).toBe(title);
  });
});

describe('validateTemplate', () => {
  test('accepts a minimal template', () => {
    expect(validateTemplate('${title}')).toBeNull();
  });

  test.each([
    ['', '不能为空'],
    ['   \n\t ', '不能为空'],
    ['请回答：${options}', '${title}'],
    ['${Title}', '${title}'],
  ])('rejects %j', (t, fragment) => {
    const msg = validateTemplate(t);
    expect(msg).not.toBeNull();
    expect(msg).toContain(fragment);
  });

  test('4000 characters are allowed, 4001 are not', () => {
    const ok = '${title}' + '题'.repeat(4000 - 8);
    expect(Array.from(ok).length).toBe(4000);
    expect(validateTemplate(ok)).toBeNull();
    const tooLong = ok + '题';
    expect(validateTemplate(tooLong)).toContain('4000');
  });

  test('length counts characters, not UTF-16 units', () => {
    const emoji = '${title}' + '😀'.repeat(3992);
    expect(emoji.length).toBeGreaterThan(4000);
    expect(validateTemplate(emoji)).toBeNull();
  });
});
