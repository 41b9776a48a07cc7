/**
 * What makes two scraped questions "the same": the normalization every title and option goes through
 * before hashing, indexing or comparing. Pages wrap titles in HTML, number them, tag them with their
 * type or score, mix full- and half-width characters and Chinese and ASCII punctuation; none of that
 * is part of the question.
 */
import type { OcsQuestionType } from '../../../db/schema';
import { sha256 } from '../../../lib/tokens';

export type { OcsQuestionType };

const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  middot: '·',
  times: '×',
  divide: '÷',
};

/**
 * What makes text markup rather than text that merely contains `<`: an entity, a closing tag, a
 * self-closing tag or a tag with an attribute. A page's own text (what the OCS script sends, taken from
 * innerText) has none of them even when it shows `<br>` as the subject of an HTML question, and is
 * left as it is; a bank exported from a rich-text editor has them.
 */
const MARKUP_SIGNS =
  /&(?:#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});|<\/[a-z][a-z0-9]*\s*>|<[a-z][a-z0-9]*\s*\/>|<[a-z][a-z0-9]*\s+[a-z-]+\s*=/i;

/**
 * Markup turned into the text it shows, in one pass: tags go (block ends become a space) and entities
 * are decoded, and what an entity decodes to is never read again as a tag (`&lt;p&gt;` is the text
 * `<p>`). Text without markup comes back unchanged. Applied once to what comes from outside (a bank
 * file's cells, a caller's title and options, an upstream's answer), never to stored text again.
 */
export function plainText(s: string): string {
  if (!s.includes('<') && !s.includes('&')) return s;
  if (!MARKUP_SIGNS.test(s)) return s;
  return s.replace(
    /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>|(<br\s*\/?>|<\/(?:p|div|li)>)|<\/?[a-zA-Z][^>]*>|&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g,
    (m, script: string | undefined, block: string | undefined, e: string | undefined) => {
      if (script || block) return ' ';
      if (e === undefined) return '';
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    },
  );
}

// Question numbers and type/score tags that pages put around the title (after NFKC, so half-width).
const LEADING_TAGS = [
  /^\s*[[【(]\s*(?:单选题?|多选题?|判断题?|填空题?|简答题?|选择题?|不定项选择题?|单项选择题?|多项选择题?|论述题?|名词解释)\s*(?:[,，]?\s*[\d.]+\s*分)?\s*[\]】)]\s*/,
  /^\s*(?:单选题?|多选题?|判断题?|填空题?|单项选择题?|多项选择题?)\s*[:：]\s*/,
  /^\s*第\s*\d{1,4}\s*题\s*[.、:：]?\s*/,
  /^\s*\(\s*\d{1,4}\s*\)\s*/,
  /^\s*\d{1,4}\s*[.、:：)](?!\d)\s*/,
];
const SCORE_TAGS = /[(（[【]\s*(?:\d+(?:\.\d+)?\s*分|共?\s*\d+(?:\.\d+)?\s*分\s*)\s*[)）\]】]/g;

/** The leading tags, as many as there are (「【单选题】 12. 」). */
function stripLeadingTags(s: string): string {
  let prev: string;
  do {
    prev = s;
    for (const re of LEADING_TAGS) s = s.replace(re, '');
  } while (s !== prev);
  return s;
}

const stripScoreTags = (s: string, by: string) => s.replace(SCORE_TAGS, by);

/**
 * Keeps letters, digits, symbols (math: + = × ÷ <) and the characters whose removal would merge two
 * different questions: a decimal point between digits, a minus sign. Everything else that is
 * punctuation or whitespace goes, so 「，」 vs 「,」, a trailing 「？」 and extra spaces no longer matter.
 */
// The rules are those of four regular expressions (tests/server/ocs/normalize.test.ts holds this
// equal to them): a '.' between two ASCII digits stays, a '-' before an ASCII digit stays unless a
// letter or digit is before it, and [\p{P}\p{Z}\s\u200b-\u200f\u2060\ufeff] goes. One pass over
// the text with a table of the classes of the 65,536 UTF-16 units: this runs for every title and option
// of every query, where the four passes of the regular expressions took 6-8% of the main thread.
const REMOVED = /^[\p{P}\p{Z}\s\u200b-\u200f\u2060\ufeff]$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const GOES = 1;
const WORDY = 2;
let unitClasses: Uint8Array | null = null;

/** GOES and WORDY of a code point (a lone surrogate is neither). */
function classOf(cp: number): number {
  if (cp <= 0xffff) {
    if (!unitClasses) {
      unitClasses = new Uint8Array(0x10000);
      for (let c = 0; c < 0x10000; c++) {
        if (c >= 0xd800 && c <= 0xdfff) continue;
        const ch = String.fromCharCode(c);
        unitClasses[c] = (REMOVED.test(ch) ? GOES : 0) | (LETTER_OR_DIGIT.test(ch) ? WORDY : 0);
      }
    }
    return unitClasses[cp]!;
  }
  const ch = String.fromCodePoint(cp);
  return (REMOVED.test(ch) ? GOES : 0) | (LETTER_OR_DIGIT.test(ch) ? WORDY : 0);
}

const isDigit = (unit: number) => unit >= 0x30 && unit <= 0x39;

/** Punctuation and spacing out, decimal points and minus signs kept (U+0000 and U+0001 become '.' and '-'). */
export function squeeze(s: string): string {
  let out = '';
  let kept = 0; // s[kept, i) is still to be copied
  let prevClass = 0; // of the code point before i (0 at the start)
  for (let i = 0; i < s.length;) {
    const cp = s.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const cls = classOf(cp);
    let replace: string | null = null;
    if (cp === 0x2e) {
      if (!(i > 0 && isDigit(s.charCodeAt(i - 1)) && isDigit(s.charCodeAt(i + 1)))) replace = '';
    } else if (cp === 0x2d) {
      if (!(isDigit(s.charCodeAt(i + 1)) && (prevClass & WORDY) === 0)) replace = '';
    } else if (cp === 0) {
      replace = '.';
    } else if (cp === 1) {
      replace = '-';
    } else if (cls & GOES) {
      replace = '';
    }
    if (replace !== null) {
      out += s.slice(kept, i) + replace;
      kept = i + width;
    }
    prevClass = cls;
    i += width;
  }
  return kept === 0 ? s : out + s.slice(kept);
}

/** The matching key of a title. */
export function normalizeTitle(raw: string): string {
  let s = plainText(raw).normalize('NFKC');
  s = stripScoreTags(stripLeadingTags(s), ' ');
  return squeeze(s).toLowerCase();
}

/** The display form of a title: tags and HTML gone, spacing tidied, punctuation kept. */
export function cleanTitle(raw: string): string {
  return stripScoreTags(stripLeadingTags(plainText(raw)), '')
    .replace(/\s+/g, ' ')
    .trim();
}

const STRICT_LETTER_PREFIX = /^\s*[(（]?\s*([A-Za-z])\s*[)）]?\s*[.、:：．)）]\s*/;
const LOOSE_LETTER_PREFIX = /^\s*[(（]?\s*([A-Za-z])\s*[)）]?\s*(?:[.、:：．)）]\s*|\s+)/;

/** The caller's options: the comparable form (NFKC, spacing tidied) and the caller's own text of each. */
export interface CallerOptions {
  /** What matching compares (labels removed, NFKC, whitespace collapsed). */
  options: string[];
  /**
   * Each option's whole line as the caller sent it (label included, trimmed): what the page shows, so what
   * an answer is given in (script/reading.ts says how the OCS script compares the two).
   */
  raw: string[];
  /**
   * optionKey() of each of `options`: an answer is matched and formatted through these keys several times
   * per query (the option set's hash, the overlap with a bank row, the answer's options). Computed once here.
   */
  keys: string[];
}

/**
 * Splits the caller's options (joined with newlines, as OCS sends them; already text, see plainText) and
 * removes their `A.`/`A、`/`(A)`/`Ａ．` prefixes for matching. A bare `A ` prefix is only taken off when
 * every option carries its own letter in order, so an option such as 「A 型血」 keeps its A.
 */
export function splitCallerOptions(raw: string | string[] | undefined | null): CallerOptions {
  const list = (Array.isArray(raw) ? raw : String(raw ?? '').split(/\r?\n/))
    .map((o) => {
      const line = String(o).trim();
      return { line, norm: line.normalize('NFKC').trim() };
    })
    .filter((o) => o.norm !== '');
  const sequential = list.every((o, i) => {
    const m = LOOSE_LETTER_PREFIX.exec(o.norm);
    return m !== null && m[1]!.toUpperCase() === String.fromCharCode(65 + i);
  });
  const options: string[] = [];
  const keys: string[] = [];
  for (const o of list) {
    const m = (sequential ? LOOSE_LETTER_PREFIX : STRICT_LETTER_PREFIX).exec(o.norm);
    const text = (m ? o.norm.slice(m[0].length) : o.norm).replace(/\s+/g, ' ').trim();
    options.push(text);
    keys.push(optionKey(text));
  }
  return { options, raw: list.map((o) => o.line), keys };
}

/** One option's text without an `A.`/`(A)`/`Ａ．` label (a piece of an answer given in a caller's lines). */
export function withoutLabel(line: string): string {
  const n = line.normalize('NFKC').trim();
  const m = STRICT_LETTER_PREFIX.exec(n);
  return m ? n.slice(m[0].length) : n;
}

/** The comparable form of the caller's options (splitCallerOptions().options). */
export function splitOptions(raw: string | string[] | undefined | null): string[] {
  return splitCallerOptions(raw).options;
}

/**
 * Code-like options: an ASCII letter or digit right beside punctuation that carries meaning in code
 * (`int a; int b;` against `int a, int b;`, `a.b` against `ab`, `f(x)` against `fx`). Their keys keep
 * every ASCII mark; everywhere else punctuation is noise (「北京，上海」 and 「北京、上海」 are one option).
 */
const CODE_MARKS = /[A-Za-z0-9_][;(){}[\]#&*\\/%@]|[;(){}[\]#&*\\/%@][A-Za-z0-9_]|::|[A-Za-z_]\.[A-Za-z_]/;
const NOT_ASCII_MARK = /[\p{P}\u200b-\u200f\u2060\ufeff]/gu;

/** Comparison key of one option text (text, not markup). */
export function optionKey(option: string): string {
  const n = option.normalize('NFKC').toLowerCase();
  if (!CODE_MARKS.test(n)) {
    // An option of punctuation alone (`---`, `***`) is still that option, not an empty one.
    return squeeze(n) || n.replace(/\s+/g, '');
  }
  // Code: spacing tidied (none beside an ASCII mark, one elsewhere), non-ASCII punctuation dropped.
  return n
    .replace(NOT_ASCII_MARK, (c) => (c.charCodeAt(0) < 0x80 ? c : ''))
    .replace(/\s+/g, ' ')
    .replace(/ ?([!-/:-@[-`{-~]) ?/g, '$1')
    .trim();
}

const TYPE_ALIASES: Record<string, OcsQuestionType> = {
  single: 'single',
  multiple: 'multiple',
  judgement: 'judgement',
  judgment: 'judgement',
  completion: 'completion',
  单选: 'single',
  单选题: 'single',
  多选: 'multiple',
  多选题: 'multiple',
  判断: 'judgement',
  判断题: 'judgement',
  填空: 'completion',
  填空题: 'completion',
};

/** The script may also send line, fill, reader or unknown: those mean "any type". */
export function normalizeType(raw: unknown): OcsQuestionType {
  if (typeof raw !== 'string') return 'any';
  const key = raw.trim().toLowerCase();
  // Own keys only: `constructor` or `__proto__` read Object.prototype's (tests/server/property.test.ts).
  return Object.hasOwn(TYPE_ALIASES, key) ? TYPE_ALIASES[key] : 'any';
}

/** sha256 of the normalized title (hex, 128 bits kept): the exact-match key. */
export function titleHash(normTitle: string): string {
  return sha256(normTitle).slice(0, 32);
}

const JUDGE_TRUE = new Set(['正确', '对', '是', '√', '✓', '✔', 'true', 't', 'yes', 'y', 'right', '1']);
const JUDGE_FALSE = new Set(['错误', '错', '否', '×', '✗', '✘', 'x', 'false', 'f', 'no', 'n', 'wrong', '0']);

/** 正确 / 错误 from the ways banks and pages write them, or null. */
export function judgementOf(raw: string): '正确' | '错误' | null {
  const k = raw
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/[\s.。!！]/g, '');
  if (JUDGE_TRUE.has(k)) return '正确';
  if (JUDGE_FALSE.has(k)) return '错误';
  return null;
}
