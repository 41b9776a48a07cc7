/**
 * The question as the answering path sees it: parseQuestion validates the OCS script's raw parameters
 * (title, type, options) into a Question with its normalized title and cache key, or a Chinese message.
 */
import { optionsHash } from '../bank/question';
import {
  normalizeTitle,
  normalizeType,
  plainText,
  splitCallerOptions,
  titleHash,
  type OcsQuestionType,
} from '../bank/normalize';

export interface Question {
  title: string;
  type: OcsQuestionType;
  /** The options as matching compares them (labels removed, NFKC). */
  options: string[];
  /** The same options as the caller's own lines (labels kept): what the page shows, and what answers are given in. */
  ownOptions: string[];
  /** optionKey() of each of `options` (computed once: matching and formatting use them several times). */
  optionKeys: string[];
  norm: string;
  /** Normalized title, type and option set: the cache and single-flight key. */
  key: string;
}

// Control characters (other than tab and newlines) and U+FFFD; lone surrogates too (isWellFormed, native):
// not a question.
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/;
const isGarbage = (s: string) => CONTROL.test(s) || !s.isWellFormed();

/** Validates raw OCS parameters into a question, or a Chinese message. */
export function parseQuestion(raw: { title?: unknown; type?: unknown; options?: unknown }): Question | string {
  if (typeof raw.title !== 'string' || raw.title.trim() === '') return '题目不能为空';
  if (raw.title.length > 2000) return '题目过长（不能超过 2000 个字符）';
  if (isGarbage(raw.title)) return '题目包含无法识别的字符';
  const rawOptions = raw.options;
  if (
    rawOptions !== undefined &&
    typeof rawOptions !== 'string' &&
    !(Array.isArray(rawOptions) && rawOptions.every((o) => typeof o === 'string'))
  ) {
    return '选项格式不正确';
  }
  const joined = Array.isArray(rawOptions) ? rawOptions.join('\n') : (rawOptions ?? '');
  if (joined.length > 20_000) return '选项过长';
  if (isGarbage(joined)) return '选项包含无法识别的字符';
  // The script sends each option's visible text; a client that sends markup gets it read as text once.
  const lines = (Array.isArray(rawOptions) ? rawOptions : joined.split(/\r?\n/)).map(plainText);
  const { options, raw: ownOptions, keys: optionKeys } = splitCallerOptions(lines);
  if (options.length > 26) return '选项过多（不能超过 26 个）';
  const norm = normalizeTitle(raw.title);
  if (!norm) return '题目不能为空';
  const type = normalizeType(raw.type);
  const key = titleHash(`${norm}\u0002${type}\u0002${optionsHash(options, optionKeys)}`);
  return { title: raw.title, type, options, ownOptions, optionKeys, norm, key };
}
