/**
 * Turning a stored answer into the caller's terms. An answer is a list of pieces: for choices the
 * options it names, each as the caller's own line (label included, byte for byte: the OCS script
 * compares it with the page's option text, and strips an ASCII label from both alike), in the caller's
 * order so shuffled options still work; for judgements 正确 or 错误; for blanks one piece per blank, in
 * order. How a list travels to the script is src/contract/ocsAnswer.ts.
 */
import { judgementOf, optionKey, withoutLabel, type OcsQuestionType } from './normalize';

export interface StoredAnswer {
  type: OcsQuestionType;
  options: string[];
  answer: string[];
}

/**
 * Share of the caller's options that the stored question also has (1 when either has none).
 * `callerKeys`: optionKey() of each caller option, when the caller has them (Question.optionKeys).
 */
export function optionOverlap(stored: string[], caller: string[], callerKeys?: readonly string[]): number {
  if (stored.length === 0 || caller.length === 0) return 1;
  const keys = new Set(stored.map(optionKey));
  let shared = 0;
  for (let i = 0; i < caller.length; i++) if (keys.has(callerKeys?.[i] ?? optionKey(caller[i]!))) shared++;
  return shared / caller.length;
}

/**
 * The answer for this caller, or null when it cannot be expressed with the caller's options (then
 * the stored question is not the caller's question, whatever the title says).
 */
export function formatAnswer(
  stored: StoredAnswer,
  callerType: OcsQuestionType,
  callerOptions: string[],
  /** The caller's own line of each option (same order), when known: what the answer is given in. */
  ownOptions?: string[],
  /** optionKey() of each caller option (same order), when known. */
  callerKeys?: readonly string[],
): string[] | null {
  if (stored.answer.length === 0) return null;
  const judgement = stored.type === 'judgement' || callerType === 'judgement';
  if (judgement && stored.answer.length === 1) {
    const j = judgementOf(stored.answer[0]!);
    if (j) return [j];
    if (stored.type === 'judgement') return null;
  }
  const choice = stored.type === 'single' || stored.type === 'multiple' || stored.options.length > 0;
  if (choice && callerOptions.length > 0) {
    const wanted = new Set(stored.answer.map(optionKey));
    const picked: number[] = [];
    for (let i = 0; i < callerOptions.length; i++) {
      if (wanted.has(callerKeys?.[i] ?? optionKey(callerOptions[i]!))) picked.push(i);
    }
    // Every stored answer must be among the caller's options, and one option per answer.
    if (picked.length !== wanted.size) return null;
    if (callerType === 'single' && picked.length !== 1) return null;
    return picked.map((i) => ownOptions?.[i] ?? callerOptions[i]!);
  }
  return [...stored.answer];
}

/**
 * An answer from anywhere (the AI, an upstream bank, the 10-minute repeat) in the caller's own option
 * lines: when every piece is one of the caller's options, those options as the caller wrote them, in
 * the caller's order; otherwise the answer unchanged (judgements, blanks, free text).
 */
export function inCallerText(
  answer: readonly string[],
  q: { options: string[]; ownOptions?: string[]; optionKeys?: readonly string[] },
): string[] {
  if (q.options.length === 0 || !q.ownOptions || answer.length === 0) return [...answer];
  const keys = q.optionKeys ?? q.options.map(optionKey);
  const wanted = new Set(answer.map((a) => optionKey(withoutLabel(a))));
  if (wanted.has('')) return [...answer];
  const picked = keys.flatMap((k, i) => (wanted.has(k) ? [i] : []));
  if (picked.length !== wanted.size) return [...answer];
  return picked.map((i) => q.ownOptions![i] ?? q.options[i]!);
}
