/**
 * How the OCS userscript reads an answer against the options of the page it is on, so that the portal
 * answers in a form the script clicks right and never charges for one it would not. The script (its
 * question resolver, as published) splits the answer into pieces (src/contract/ocsAnswer.ts), takes a
 * leading ASCII letter label off the pieces and the options alike, and then, depending on the user's
 * setting, picks the options the pieces resemble (Dice coefficient above 0.6, the `string-similarity`
 * package it uses; for multiple choice also every option whose text a piece contains) or only those
 * they equal. Judgements are matched whole against its families of true and false words.
 */
import { compareTwoStrings } from 'string-similarity';
import { splitOcsAnswer, toOcsAnswer } from '@contract';
import type { OcsQuestionType } from '../../../db/schema';

/**
 * The script's label removal: the first ASCII capital followed by non-word characters and then a word
 * loses the capital and those characters (`A. 北京` → `北京`). Only ASCII letters: `Ｂ．北京` stays as it
 * is, and so does anything without such a run; like the script, it is not anchored at the start.
 */
export function scriptOptionText(line: string): string {
  return line.trim().replace(/[A-Z][^A-Za-z0-9\u4e00-\u9fa5]+([A-Za-z0-9\u4e00-\u9fa5]+)/, '$1');
}

export type MatchMode = 'similar' | 'exact';
export const MATCH_MODES: readonly MatchMode[] = ['similar', 'exact'];

const TRUE_WORDS = ['是', '对', '正确', '确定', '√', '对的', '是的', '正确的', 'true', 'True', 'T', 'yes', '1'];
const FALSE_WORDS = [
  ...['非', '否', '错', '错误', '×', 'X', '错的', '不对', '不正确的', '不正确', '不是', '不是的'],
  ...['false', 'False', 'F', 'no', '0'],
];

/** The script's comparison form of a judgement word: lower case, only CJK, ASCII letters, digits, √ and ×. */
const judgeForm = (s: string) =>
  scriptOptionText(s)
    .trim()
    .toLocaleLowerCase()
    .replace(/[^\u4e00-\u9fa5A-Za-z0-9√×]/g, '');
const isWordOf = (words: string[], s: string) => words.some((w) => judgeForm(w) === judgeForm(s));

/** The best similarity of `option` among `pieces`, as the script's findBestMatch reports it. */
function bestRating(option: string, pieces: string[]): number {
  if (option.trim() === '' || pieces.length === 0) return 0;
  return Math.max(...pieces.map((p) => compareTwoStrings(option, p)));
}

/**
 * The options (indices into `lines`, the options' visible texts) the script picks for `answer` in
 * `mode`, or [] when it picks none.
 */
export function scriptPicks(
  type: 'single' | 'multiple' | 'judgement',
  answer: string,
  lines: readonly string[],
  mode: MatchMode,
): number[] {
  if (type === 'judgement') {
    const yes = isWordOf(TRUE_WORDS, answer);
    const no = !yes && isWordOf(FALSE_WORDS, answer);
    if (!yes && !no) return [];
    const i = lines.findIndex((l) => (yes ? isWordOf(TRUE_WORDS, l) : isWordOf(FALSE_WORDS, l)));
    return i < 0 ? [] : [i];
  }
  const pieces = splitOcsAnswer(answer);
  const texts = lines.map(scriptOptionText);
  // Both sides go through the label removal once more inside the script's comparisons.
  const compared = texts.map(scriptOptionText);
  const piecesCompared = pieces.map(scriptOptionText);
  if (mode === 'exact') {
    // The equal ones, found by the twice-stripped text but clicked by the first option whose once-stripped
    // text is that: where stripping twice changes a text, that is another option, or none.
    const equal = compared.filter((t) => piecesCompared.some((p) => p.trim() === t.trim()));
    if (type === 'single') {
      const i = texts.findIndex((t) => equal.includes(t));
      return equal.length > 0 && i >= 0 ? [i] : [];
    }
    return equal.map((t) => texts.indexOf(t)).filter((i) => i >= 0);
  }
  const ratings = compared.map((t) => bestRating(t, piecesCompared));
  if (type === 'single') {
    let best = -1;
    let max = 0;
    ratings.forEach((r, i) => {
      if (r > max) [best, max] = [i, r];
    });
    return best >= 0 && max > 0.6 ? [best] : [];
  }
  // Multiple: the options some piece contains whole, or those rated above 0.6, whichever weighs more.
  const contained = texts.flatMap((t, i) => (pieces.some((p) => p.includes(t)) ? [i] : []));
  const similar = ratings.flatMap((r, i) => (r > 0.6 ? [i] : []));
  const similarSum = similar.reduce((s, i) => s + ratings[i]!, 0);
  return contained.length > similarSum ? contained : similar;
}

/** Whether the script, in either matching mode, picks exactly the options `wanted` for `answer`. */
export function scriptPicksExactly(
  type: 'single' | 'multiple' | 'judgement',
  answer: string,
  lines: readonly string[],
  wanted: readonly number[],
): boolean {
  const want = [...wanted].sort((a, b) => a - b).join(',');
  return MATCH_MODES.every((mode) => scriptPicks(type, answer, lines, mode).join(',') === want);
}

/**
 * Whether the script, on the page of a question of `type` with these option lines, clicks exactly the
 * options `parts` names (given as those lines) in either matching mode; a judgement word must find its
 * option. Without options, or for a type the script fills in rather than clicks, there is nothing to check.
 */
export function scriptClicksRight(type: OcsQuestionType, parts: readonly string[], lines: readonly string[]): boolean {
  if (lines.length === 0) return true;
  if (type === 'judgement') return scriptPicks('judgement', toOcsAnswer(parts), lines, 'similar').length === 1;
  if (type !== 'single' && type !== 'multiple') return true;
  const wanted = parts.map((p) => lines.indexOf(p));
  return !wanted.includes(-1) && scriptPicksExactly(type, toOcsAnswer(parts), lines, wanted);
}
