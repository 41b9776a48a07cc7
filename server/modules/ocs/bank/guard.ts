/**
 * The near-miss guard of fuzzy matching: benignDifference tells whether a query differs from a stored
 * title only in a way that keeps the question (a cut-off end, function words, interchangeable
 * wordings). Another number, a negation or another entity is never answered, whatever the similarity.
 */
import diff from 'fast-diff';

const DIGITS = /[0-9]/;
const NEGATION = /[不非没无未否错误反]/;
/** Characters of function words whose change does not change a question. */
const BENIGN = new Set(
  Array.from(
    '的了是在下列以哪一个些项关于说法中对于和与及或其之为面如选出请问括号内应填入空白处横线上述按照根据那么呢吗吧啊',
  ),
);

/**
 * Wordings quiz sites use interchangeably. Both sides are rewritten to the first form before the
 * difference is judged, so 「以下哪个」 against 「下列哪一个」 is no difference at all.
 */
const PARAPHRASES: Array<[string, string[]]> = [
  ['下列', ['以下', '下面', '如下']],
  ['哪一个', ['哪个']],
  ['哪一项', ['哪项']],
  ['哪些', ['哪几项', '哪几个']],
  ['哪一年', ['哪年']],
  ['大约是', ['约是', '大概是']],
  ['主要', ['最主要']],
  ['说法', ['表述', '叙述', '描述']],
  ['关于', ['有关']],
  ['认为', ['指出']],
  ['提出', ['提到']],
  ['说明', ['表明']],
  ['教材', ['课本']],
  ['广泛', ['普遍']],
  ['系统', ['全面']],
  ['重要', ['关键']],
];
const PARAPHRASE_RE = new RegExp(
  PARAPHRASES.flatMap(([, alts]) => alts)
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'g',
);
const PARAPHRASE_TO = new Map(PARAPHRASES.flatMap(([to, alts]) => alts.map((a) => [a, to] as const)));
const canonicalWording = (s: string) => s.replace(PARAPHRASE_RE, (m) => PARAPHRASE_TO.get(m) ?? m);

/**
 * True when the query differs from the stored title only in a way that keeps the question: a cut-off
 * end, or function words. Any changed digit, negation or content character rejects the candidate,
 * whatever the similarity: a wrong answer is worse than none.
 */
export function benignDifference(query: string, stored: string): boolean {
  const parts = diff(canonicalWording(stored), canonicalWording(query));
  let changed = '';
  let truncatedTail = '';
  parts.forEach(([op, text], i) => {
    if (op === diff.EQUAL) return;
    if (op === diff.DELETE && i === parts.length - 1) truncatedTail = text;
    else changed += text;
  });
  if (DIGITS.test(changed + truncatedTail) || NEGATION.test(changed + truncatedTail)) return false;
  if (truncatedTail.length > Math.max(3, Math.floor(stored.length * 0.2))) return false;
  return Array.from(changed).every((c) => BENIGN.has(c));
}
