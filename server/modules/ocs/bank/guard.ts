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
/** BENIGN as UTF-16 code units (all of them are single units). */
const BENIGN_UNITS = new Set([...BENIGN].map((c) => c.charCodeAt(0)));
const PARAPHRASE_TO = new Map(PARAPHRASES.flatMap(([to, alts]) => alts.map((a) => [a, to] as const)));
const canonicalWording = (s: string) => s.replace(PARAPHRASE_RE, (m) => PARAPHRASE_TO.get(m) ?? m);

/**
 * True when the query differs from the stored title only in a way that keeps the question: a cut-off
 * end, or function words. Any changed digit, negation or content character rejects the candidate,
 * whatever the similarity: a wrong answer is worse than none.
 */
export function benignDifference(query: string, stored: string): boolean {
  return differenceGuard(query)(stored);
}

/**
 * benignDifference for one query against many stored titles: the query is prepared once, and a stored
 * title the query has a content character more of than it is refused without computing the diff.
 * (A character the query has more of than the stored title is in an insertion of any diff between
 * them, and every insertion counts as changed: it must be a function word's.) Same answers as
 * benignDifference.
 */
export function differenceGuard(query: string): (stored: string) => boolean {
  const canonQuery = canonicalWording(query);
  // The query's content characters (by UTF-16 code unit), each with a slot, and how often each occurs.
  const slotOf = new Map<number, number>();
  const wanted: number[] = [];
  for (let i = 0; i < canonQuery.length; i++) {
    const c = canonQuery.charCodeAt(i);
    if (BENIGN_UNITS.has(c)) continue;
    const slot = slotOf.get(c);
    if (slot === undefined) {
      slotOf.set(c, wanted.length);
      wanted.push(1);
    } else wanted[slot]!++;
  }
  const have = new Int32Array(wanted.length);
  return (stored: string) => {
    const canonStored = canonicalWording(stored);
    have.fill(0);
    for (let i = 0; i < canonStored.length; i++) {
      const slot = slotOf.get(canonStored.charCodeAt(i));
      if (slot !== undefined) have[slot]!++;
    }
    for (let k = 0; k < wanted.length; k++) if (wanted[k]! > have[k]!) return false;
    return judge(canonQuery, canonStored, stored.length);
  };
}

function judge(canonQuery: string, canonStored: string, storedLength: number): boolean {
  const parts = diff(canonStored, canonQuery);
  let changed = '';
  let truncatedTail = '';
  parts.forEach(([op, text], i) => {
    if (op === diff.EQUAL) return;
    if (op === diff.DELETE && i === parts.length - 1) truncatedTail = text;
    else changed += text;
  });
  if (DIGITS.test(changed + truncatedTail) || NEGATION.test(changed + truncatedTail)) return false;
  if (truncatedTail.length > Math.max(3, Math.floor(storedLength * 0.2))) return false;
  return Array.from(changed).every((c) => BENIGN.has(c));
}
