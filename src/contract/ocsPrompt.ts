/**
 * AI prompt templates for OCS questions: the built-in defaults per question type, user template
 * validation, and rendering a template for one question. Pure, no I/O: the server renders prompts with
 * it, and the dev mocks answer the prompt endpoints with the same defaults.
 */
import type { OcsType as KnownType } from './ocs';

/** The question types a prompt is written for: the known ones, and `any` when OCS sends none. */
export type PromptType = KnownType | 'any';

export const PROMPT_TYPE_LABELS: Record<PromptType, string> = {
  single: '单选题',
  multiple: '多选题',
  judgement: '判断题',
  completion: '填空题',
  any: '未知题型',
};

export const TEMPLATE_MAX_LENGTH = 4000;

// The answer formats asked for here are the ones parse.ts reads best: option texts (not letters,
// which break when OCS shuffles options between pages), one answer a line (an option or a blank may
// itself contain `#` or `;`).
export const DEFAULT_PROMPT_TEMPLATES: Record<PromptType, string> = {
  single: [
    '你是一个严谨的答题助手。下面是一道${type}，请从选项中选出唯一正确的一项。',
    '只输出该选项的完整文字内容，不要输出选项字母，不要输出任何解释或其他文字。',
    '',
    '题目：${title}',
    '选项：',
    '${options}',
  ].join('\n'),
  multiple: [
    '你是一个严谨的答题助手。下面是一道${type}，请从选项中选出所有正确的选项。',
    '只输出这些选项的完整文字内容，每个答案单独一行，不要输出选项字母，不要输出任何解释或其他文字。',
    '',
    '题目：${title}',
    '选项：',
    '${options}',
  ].join('\n'),
  judgement: [
    '你是一个严谨的答题助手。下面是一道${type}，请判断题目中的说法是否正确。',
    '只输出“正确”或“错误”两个字之一，不要输出任何解释或其他文字。',
    '',
    '题目：${title}',
    '选项：',
    '${options}',
  ].join('\n'),
  completion: [
    '你是一个严谨的答题助手。下面是一道${type}，请按空的先后顺序给出每个空的答案。',
    '只输出答案本身，每个空的答案单独一行，不要输出序号、题目或任何解释。',
    '',
    '题目：${title}',
    '选项：',
    '${options}',
  ].join('\n'),
  any: [
    '你是一个严谨的答题助手。请回答下面的题目（题型：${type}）。',
    '如果有选项，只输出正确选项的完整文字内容，每个答案单独一行，不要输出选项字母；如果没有选项，只输出答案本身。',
    '不要输出任何解释或其他文字。',
    '',
    '题目：${title}',
    '选项：',
    '${options}',
  ].join('\n'),
};

/** Option label as shown in prompts: A–Z, then plain numbers for the (rare) 27th option on. */
export function optionLabel(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : String(index + 1);
}

export function renderOptions(options: string[]): string {
  if (options.length === 0) return '（无）';
  return options.map((o, i) => `${optionLabel(i)}. ${o}`).join('\n');
}

/**
 * One pass over the template: the replacement values are never rescanned, so a question title
 * that itself contains `${options}` stays literal text.
 */
export function renderPrompt(template: string, q: { title: string; type: PromptType; options: string[] }): string {
  const values: Record<string, string> = {
    title: q.title,
    type: PROMPT_TYPE_LABELS[q.type] ?? PROMPT_TYPE_LABELS.any,
    options: renderOptions(q.options),
  };
  // A function replacer, so `$&` or `$1` inside user text is not interpreted either.
  return template.replace(/\$\{(title|type|options)\}/g, (_m, key: string) => values[key]);
}

export function validateTemplate(t: string): string | null {
  if (typeof t !== 'string' || t.trim() === '') return '提示词模板不能为空';
  // Counted in code points, as PostgreSQL counts characters.
  if (Array.from(t).length > TEMPLATE_MAX_LENGTH) return `提示词模板不能超过 ${TEMPLATE_MAX_LENGTH} 个字符`;
  if (!t.includes('${title}')) return '提示词模板必须包含 ${title}（题目）';
  return null;
}
