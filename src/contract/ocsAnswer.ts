/**
 * How an answer travels to the OCS userscript and back. The script splits the answer string it gets
 * on its separators (by default `===`, `#`, `---`, `###`, `|`, `;`, `；`) unless the string is a JSON
 * array, which it takes as the list of pieces as it is. An option such as `int a; int b;` or `C#`
 * therefore survives only inside a JSON array: every answer but a judgement word is sent as one.
 * Pure (no node or browser APIs): the server encodes, the pages and the userscript read.
 */

/** The OCS script's default answer separators, in the order it tries them. */
export const OCS_ANSWER_SEPARATORS = ['===', '#', '---', '###', '|', ';', '；'] as const;

/** The two words a judgement answer is given in (the script's judgement families include both). */
export const JUDGEMENT_WORDS = ['正确', '错误'] as const;

/**
 * The pieces the OCS script reads from an answer string with its default separators: a JSON array's
 * elements, else the parts around the first separator that occurs, else the whole text.
 */
export function splitOcsAnswer(answer: string): string[] {
  const text = answer.trim();
  if (text === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    for (const sep of OCS_ANSWER_SEPARATORS) {
      const parts = text.split(sep);
      if (parts.length > 1) return parts.filter((p) => p.trim() !== '');
    }
    return [text];
  }
  // Valid JSON that is not an array (a number such as "42") is one piece: the script does not split it.
  return Array.isArray(parsed) ? parsed.map(String).filter((p) => p.trim() !== '') : [text];
}

/**
 * The answer string for the OCS script: a judgement word as it is, everything else (option texts,
 * blanks) as a JSON array, which the script reads back piece for piece whatever the pieces contain.
 */
export function toOcsAnswer(parts: readonly string[]): string {
  if (parts.length === 1 && (JUDGEMENT_WORDS as readonly string[]).includes(parts[0]!)) return parts[0]!;
  return JSON.stringify(parts);
}

/** An answer for people to read (pages, the userscript's panel): its pieces, one per line or separated by 「；」. */
export function answerText(answer: string | readonly string[] | null | undefined, separator = '；'): string {
  if (answer == null) return '';
  const parts = typeof answer === 'string' ? splitOcsAnswer(answer) : answer;
  return parts.join(separator);
}
