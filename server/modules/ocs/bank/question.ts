/**
 * What a storable question is: prepareQuestion validates and normalizes one question (title, type,
 * option set, answer) into the form the bank keeps, and optionsHash names its option set. A question's
 * identity in the bank is its normalized title, type and option set.
 */
import { sha256 } from '../../../lib/tokens';
import { cleanTitle, judgementOf, normalizeTitle, optionKey, titleHash, type OcsQuestionType } from './normalize';

/** `import` | `verified` | `ai` | `corrected` | `upstream:<name>`: the OCS API's `source`. */
export type Provenance = string;

/** The provenance of a bank row from its source and status. */
export function provenanceOf(source: string, status: string): Provenance {
  if (source === 'manual') return 'verified';
  if (status === 'verified' && (source === 'ai' || source.startsWith('upstream:'))) return 'verified';
  return source;
}

export interface QuestionInput {
  title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
}

export interface PreparedQuestion {
  title: string;
  norm_title: string;
  title_hash: string;
  options_hash: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
}

export function optionsHash(options: readonly string[], keys?: readonly string[]): string {
  if (options.length === 0) return '';
  const sorted = (keys ?? options.map(optionKey)).slice().sort();
  return sha256(sorted.join('\u0001')).slice(0, 16);
}

/**
 * Validates and normalizes one question for storage (title, options and answer are text: a bank file's
 * markup was turned into text where it was read). Choice answers may be given as letters (`A`, `AC`) or
 * as option texts, one a piece or several in a piece joined by `#` (a piece that is an option whole, such
 * as `C#`, counts whole); they are stored as option texts. Blanks are the pieces as given. Returns a
 * Chinese error instead when the question cannot be stored as given.
 */
export function prepareQuestion(q: QuestionInput): PreparedQuestion | { error: string } {
  const title = cleanTitle(q.title);
  const norm = normalizeTitle(q.title);
  if (!norm) return { error: '题目为空' };
  if (q.title.length > 2000) return { error: '题目超过 2000 个字符' };
  if (q.options.length > 26) return { error: '选项超过 26 个' };
  const options = q.options.map((o) => o.trim()).filter(Boolean);
  let answer = q.answer.map((a) => a.trim()).filter(Boolean);
  if (answer.length === 0) return { error: '答案为空' };
  let type = q.type;
  if (
    type === 'judgement' ||
    (type === 'any' && options.length === 0 && answer.length === 1 && judgementOf(answer[0]!))
  ) {
    const j = answer.length === 1 ? judgementOf(answer[0]!) : null;
    if (!j) return { error: '判断题答案须为 正确/错误（或 对/错、√/×）' };
    if (type === 'any') type = 'judgement';
    answer = [j];
  } else if (type === 'single' || type === 'multiple' || (type === 'any' && options.length > 0)) {
    if (options.length < 2) return { error: '选择题至少需要 2 个选项' };
    const keys = options.map(optionKey);
    if (new Set(keys).size !== keys.length) return { error: '选项有重复' };
    // Letters only when the whole answer is letters that all name an option: "ABD", "A,C".
    const letters = answer
      .join('')
      .replace(/[\s,，、#;；]/g, '')
      .toUpperCase();
    const lettersOk = /^[A-Z]+$/.test(letters) && [...letters].every((l) => l.charCodeAt(0) - 65 < options.length);
    const named = (pieces: string[]) => pieces.every((a) => keys.includes(optionKey(a)));
    const split = answer
      .flatMap((a) => a.split('#'))
      .map((a) => a.trim())
      .filter(Boolean);
    const byText = named(answer) ? answer : named(split) ? split : null;
    if (byText) {
      answer = options.filter((_, i) => byText.some((a) => optionKey(a) === keys[i]));
    } else if (lettersOk) {
      answer = [...new Set(letters)].map((l) => options[l.charCodeAt(0) - 65]!);
    } else {
      return { error: '答案不在选项中（可写选项字母或选项原文）' };
    }
    if (type === 'single' && answer.length !== 1) return { error: '单选题只能有一个答案' };
  }
  if (answer.join('').length > 4000) return { error: '答案超过 4000 个字符' };
  return {
    title: title.slice(0, 2000),
    norm_title: norm,
    title_hash: titleHash(norm),
    options_hash: optionsHash(type === 'judgement' || type === 'completion' ? [] : options),
    type,
    options: type === 'judgement' || type === 'completion' ? [] : options,
    answer,
  };
}
