/**
 * Turning a stored answer into the string the OCS script expects, in terms of the caller's options:
 * single → the option text, multiple → option texts joined with `#` (in the caller's order, so shuffled
 * options still work), judgement → 正确/错误, completion → blanks joined with `#`.
 */
import { judgementOf, optionKey, type OcsQuestionType } from '../bank/normalize';

export interface StoredAnswer {
  type: OcsQuestionType;
  options: string[];
  answer: string[];
}

/** Share of the caller's options that the stored question also has (1 when either has none). */
export function optionOverlap(stored: string[], caller: string[]): number {
  if (stored.length === 0 || caller.length === 0) return 1;
  const keys = new Set(stored.map(optionKey));
  return caller.filter((o) => keys.has(optionKey(o))).length / caller.length;
}

/**
 * The answer for this caller, or null when it cannot be expressed with the caller's options (then
 * the stored question is not the caller's question, whatever the title says).
 */
export function formatAnswer(
  stored: StoredAnswer,
  callerType: OcsQuestionType,
  callerOptions: string[],
): string | null {
  if (stored.answer.length === 0) return null;
  const judgement = stored.type === 'judgement' || callerType === 'judgement';
  if (judgement && stored.answer.length === 1) {
    const j = judgementOf(stored.answer[0]!);
    if (j) return j;
    if (stored.type === 'judgement') return null;
  }
  const choice = stored.type === 'single' || stored.type === 'multiple' || stored.options.length > 0;
  if (choice && callerOptions.length > 0) {
    const wanted = new Set(stored.answer.map(optionKey));
    const picked = callerOptions.filter((o) => wanted.has(optionKey(o)));
    // Every stored answer must be among the caller's options, and one option per answer.
    if (picked.length !== wanted.size) return null;
    if (callerType === 'single' && picked.length !== 1) return null;
    return picked.join('#');
  }
  return stored.answer.join('#');
}
