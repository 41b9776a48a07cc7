/** Options as the ask form handles them: letters for labels, and a pasted block split into options. */
import { OCS_OPTIONS_MAX } from '@/contract';

/** A, B, … Z for the 26 options OCS allows. */
export const optionLetter = (index: number) => String.fromCharCode(65 + index);

// "A. 北京", "B、上海", "(C) 广州", "D：深圳": the letter is a label, not part of the option.
const LETTER_PREFIX = /^[(（]?[A-Za-z][)）.．、:：]\s*/;

/** One option per non-empty line, letter labels stripped, at most OCS_OPTIONS_MAX. */
export function splitOptions(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(LETTER_PREFIX, '').trim())
    .filter(Boolean)
    .slice(0, OCS_OPTIONS_MAX);
}
