/**
 * Turns a free-form model reply into an answer: the option texts it names, `正确`/`错误`, or the
 * blanks in order (bank/answer.ts says what an answer is). Models ignore formatting
 * instructions often enough that this accepts letters or texts, labels, quotes, markdown and
 * full-width characters, and refuses rather than guesses when a reply is ambiguous. Pure.
 */
import type { OcsType } from './types';

export type ParseResult = { answer: string[] } | { error: string };

const ERR_EMPTY = 'AI 回复为空';
const ERR_CHOICE = 'AI 回复无法解析为选项';
const ERR_SEVERAL = 'AI 回复包含多个选项，无法确定单选答案';
const ERR_JUDGE = 'AI 回复无法解析为“正确”或“错误”';
const ERR_COMPLETION = 'AI 回复中没有填空答案';

/** Comparison key: NFKC folds full-width forms, punctuation and whitespace carry no meaning here. */
export function looseKey(s: string): string {
  const n = s.normalize('NFKC').toLowerCase();
  const k = n.replace(/[\s\p{P}]/gu, '');
  // An option made only of punctuation still needs a non-empty key to be matchable.
  return k || n.replace(/\s/gu, '');
}

const LABEL =
  /^(?:(?:最终|正确|参考|标准)?答案\s*(?:是|为|应为|应该是)?\s*[:：]?|答\s*[:：]|(?:the\s+)?(?:final\s+|correct\s+)?answer\b\s*(?:is\b)?\s*[:：]?)\s*/i;
const WRAP = /^[\s"'“”‘’「」『』]+|[\s"'“”‘’「」『』。！!，,；;、]+$/g;

function stripLabel(s: string): string {
  return s.replace(LABEL, '');
}

function unwrap(s: string): string {
  return stripLabel(s.trim()).replace(WRAP, '');
}

/** Markup and chatter around the answer: reasoning blocks, code fences, bold, a leading label. */
function cleanReply(reply: string): string {
  let s = String(reply ?? '').replace(/\r\n?/g, '\n');
  s = s.replace(/<think>[\s\S]*?<\/think>/gi, '');
  s = s.replace(/```[^\n`]*\n?([\s\S]*?)```/g, '$1');
  s = s.replace(/\*\*|__|`/g, '');
  return unwrap(s);
}

function firstLine(s: string): string {
  return unwrap(s.split('\n').find((l) => l.trim() !== '') ?? '');
}

// --- choices ---------------------------------------------------------------------------------

type Pick = { kind: 'one'; index: number } | { kind: 'several' } | { kind: 'none' };
const NONE: Pick = { kind: 'none' };

function letterIndex(letter: string, options: string[]): number {
  const i = letter.charCodeAt(0) - 65;
  return i >= 0 && i < options.length && i < 26 && options[i].trim() !== '' ? i : -1;
}

function exactIndex(s: string, keys: string[]): number {
  const k = looseKey(s);
  return k === '' ? -1 : keys.indexOf(k);
}

/** Letter, exact text, or letter-prefixed text; nothing fuzzier. */
function strictPick(raw: string, options: string[], keys: string[]): Pick {
  const s = unwrap(raw);
  if (s === '') return NONE;
  const exact = exactIndex(s, keys);
  if (exact >= 0) return { kind: 'one', index: exact };

  const n = s.normalize('NFKC');
  const lone = /^(?:选择|选项|选)?\s*[([【]?\s*([A-Za-z])\s*[)\]】]?\s*(?:选项|项)?\s*[.、:]?$/.exec(n);
  if (lone) {
    const i = letterIndex(lone[1].toUpperCase(), options);
    return i >= 0 ? { kind: 'one', index: i } : NONE;
  }

  const prefixed = /^[([【]?\s*([A-Z])\s*(?:[)\]】.、:]|\s)\s*([\s\S]+)$/.exec(n);
  if (prefixed) {
    const byText = exactIndex(prefixed[2], keys);
    // The text is what the model meant; a letter is easier to get wrong.
    if (byText >= 0) return { kind: 'one', index: byText };
    const i = letterIndex(prefixed[1], options);
    const rest = looseKey(prefixed[2]);
    if (i >= 0 && rest !== '' && (rest.includes(keys[i]) || keys[i].includes(rest))) return { kind: 'one', index: i };
  }
  return NONE;
}

/** For replies with chatter: option texts contained in the reply, or a letter after 选/答案. */
function loosePick(raw: string, options: string[], keys: string[]): Pick {
  const hay = looseKey(raw);
  if (hay === '') return NONE;
  let found = keys.map((k, i) => ({ k, i })).filter(({ k }) => k !== '' && hay.includes(k));
  // "北京市" also contains the option "北京"; the longer match is the one meant.
  found = found.filter((f) => !found.some((g) => g.k !== f.k && g.k.includes(f.k)));
  const distinct = new Set(found.map((f) => f.k));
  if (distinct.size === 1) return { kind: 'one', index: found[0].i };
  if (distinct.size > 1) return { kind: 'several' };

  const letters = [
    ...raw.normalize('NFKC').matchAll(/(?:选择|选项|选|答案(?:是|为)?)\s*[:]?\s*[([【]?([A-Z])(?![A-Za-z])/g),
  ];
  const distinctLetters = new Set(letters.map((m) => m[1]));
  if (distinctLetters.size === 1) {
    const i = letterIndex([...distinctLetters][0], options);
    return i >= 0 ? { kind: 'one', index: i } : NONE;
  }
  return distinctLetters.size > 1 ? { kind: 'several' } : NONE;
}

/** "ABD", "A,B,D", "A、B、D", "A#B#D", "(A)(B)": letters only, or null if the reply is not that. */
function letterList(raw: string, options: string[]): number[] | 'out-of-range' | null {
  const n = unwrap(raw)
    .normalize('NFKC')
    .replace(/^(?:选择|选项|选)\s*/, '');
  if (!/^[A-Z\s,、#;/&+和及与.()[\]【】]+$/.test(n)) return null;
  const letters = n.replace(/[^A-Z]/g, '');
  if (letters === '') return null;
  const idx = [...letters].map((l) => letterIndex(l, options));
  return idx.some((i) => i < 0) ? 'out-of-range' : idx;
}

function joinPicked(indices: number[], options: string[]): string[] {
  return [...new Set(indices)].sort((a, b) => a - b).map((i) => options[i]);
}

/** Every token must name an option; returns the indices, or the first token that named none. */
function resolveTokens(
  text: string,
  separators: RegExp,
  options: string[],
  keys: string[],
): number[] | { bad: string } {
  const out: number[] = [];
  for (const token of text.split(separators)) {
    if (looseKey(token) === '' || unwrap(token) === '') continue;
    const p = strictPick(token, options, keys);
    if (p.kind !== 'one') return { bad: unwrap(token) };
    out.push(p.index);
  }
  return out;
}

function parseMultiple(text: string, options: string[]): ParseResult {
  if (options.every((o) => o.trim() === '')) return { error: ERR_CHOICE };
  const keys = options.map(looseKey);
  const whole = exactIndex(text, keys);
  if (whole >= 0) return { answer: [options[whole]] };

  // One answer a line, as asked for, so an option text containing `#` or a comma survives; then `#`.
  const lines = resolveTokens(text, /\n/, options, keys);
  if (Array.isArray(lines) && lines.length > 1) return { answer: joinPicked(lines, options) };
  const narrow = resolveTokens(text, /[#＃\n]/, options, keys);
  if (Array.isArray(narrow) && narrow.length > 0) return { answer: joinPicked(narrow, options) };

  const letters = letterList(text, options);
  if (Array.isArray(letters)) return { answer: joinPicked(letters, options) };
  if (letters === 'out-of-range') return { error: ERR_CHOICE };

  const wide = resolveTokens(text, /[#＃\n、,，;；|｜]/, options, keys);
  if (Array.isArray(wide) && wide.length > 0) return { answer: joinPicked(wide, options) };

  // "AB" on the first line and an explanation below.
  const headLetters = letterList(firstLine(text), options);
  if (Array.isArray(headLetters)) return { answer: joinPicked(headLetters, options) };

  const bad = !Array.isArray(wide) ? wide.bad : !Array.isArray(narrow) ? narrow.bad : '';
  return { error: bad ? `${ERR_CHOICE}：“${bad.slice(0, 40)}”不是任何选项` : ERR_CHOICE };
}

function parseSingle(text: string, options: string[]): ParseResult {
  if (options.every((o) => o.trim() === '')) return { error: ERR_CHOICE };
  const keys = options.map(looseKey);
  const whole = exactIndex(text, keys);
  if (whole >= 0) return { answer: [options[whole]] };
  const letters = letterList(text, options);
  if (Array.isArray(letters) && new Set(letters).size > 1) return { error: ERR_SEVERAL };
  const line = firstLine(text);
  for (const p of [strictPick(text, options, keys), strictPick(line, options, keys)]) {
    if (p.kind === 'one') return { answer: [options[p.index]] };
  }
  for (const p of [loosePick(line, options, keys), loosePick(text, options, keys)]) {
    if (p.kind === 'one') return { answer: [options[p.index]] };
    if (p.kind === 'several') return { error: ERR_SEVERAL };
  }
  return { error: ERR_CHOICE };
}

// --- judgement -------------------------------------------------------------------------------

const TRUE_WORDS = new Set([
  '正确',
  '对',
  '对的',
  '正确的',
  '√',
  '✓',
  '✔',
  '☑',
  'true',
  't',
  '是',
  '是的',
  'yes',
  'right',
  'correct',
]);
const FALSE_WORDS = new Set([
  '错误',
  '错',
  '错的',
  '错误的',
  '不对',
  '不正确',
  '×',
  '✗',
  '✘',
  '✕',
  'false',
  'f',
  '否',
  '不是',
  'no',
  'wrong',
  'incorrect',
]);

function judgeWord(s: string): '正确' | '错误' | null {
  const k = looseKey(s);
  if (TRUE_WORDS.has(k)) return '正确';
  if (FALSE_WORDS.has(k)) return '错误';
  return null;
}

function parseJudgement(text: string, options: string[]): ParseResult {
  const line = firstLine(text);
  const firstSegment =
    line
      .normalize('NFKC')
      .split(/[\s,.!;:，。！；：、]/)
      .find((x) => x !== '') ?? '';
  for (const candidate of [text, line, firstSegment]) {
    const direct = judgeWord(candidate);
    if (direct) return { answer: [direct] };
  }
  // A letter or option text, when the question's options are e.g. "A. 对 / B. 错".
  if (options.length > 0) {
    const keys = options.map(looseKey);
    for (const candidate of [text, line]) {
      const p = strictPick(candidate, options, keys);
      const word = p.kind === 'one' ? judgeWord(options[p.index]) : null;
      if (word) return { answer: [word] };
    }
  }
  return { error: ERR_JUDGE };
}

// --- completion ------------------------------------------------------------------------------

const NUMBERING = [
  /^第\s*[0-9０-９一二三四五六七八九十]+\s*(?:个)?(?:空|处)\s*[:：、.．]?\s*/,
  /^空\s*[0-9０-９]+\s*[:：、.．]?\s*/,
  /^[(（]\s*[0-9０-９]+\s*[)）]\s*/,
  // "1." but not the "1" of "1.5" or "1:2".
  /^[0-9０-９]+\s*[.．、:：)）](?![0-9０-９])\s*/,
  /^[\u2460-\u2473]\s*/,
];

function parseCompletion(text: string): ParseResult {
  const blanks: string[] = [];
  // One blank a line, as asked for (a blank may contain `;` or `#`); a single line is split as models
  // that ignore the instruction write it.
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (const token of lines.length > 1 ? lines : text.split(/[#＃;；]/)) {
    let t = unwrap(token);
    for (const re of NUMBERING) {
      if (re.test(t)) {
        t = unwrap(t.replace(re, ''));
        break;
      }
    }
    if (t !== '') blanks.push(t);
  }
  return blanks.length > 0 ? { answer: blanks } : { error: ERR_COMPLETION };
}

// --- entry -----------------------------------------------------------------------------------

export function parseAiReply(reply: string, q: { type: OcsType; options: string[] }): ParseResult {
  const text = cleanReply(reply);
  if (looseKey(text) === '') return { error: ERR_EMPTY };
  // Not filtered: letters must keep pointing at the positions the prompt showed.
  const options = (q.options ?? []).map((o) => String(o ?? ''));
  switch (q.type) {
    case 'single':
      return parseSingle(text, options);
    case 'multiple':
      return parseMultiple(text, options);
    case 'judgement':
      return parseJudgement(text, options);
    case 'completion':
      return parseCompletion(text);
    default: {
      if (options.every((o) => o.trim() === '')) return { answer: [text] };
      const many = parseMultiple(text, options);
      if ('answer' in many) return many;
      const one = parseSingle(text, options);
      return 'answer' in one ? one : many;
    }
  }
}

/**
 * An upstream bank's answer, already in the pieces the OCS script would read from it: one piece is
 * read as a model's reply is; several must each name an option (choices: exactly one for a single
 * choice), or are the blanks in order.
 */
export function parseAnswerPieces(pieces: string[], q: { type: OcsType; options: string[] }): ParseResult {
  if (pieces.length <= 1) return parseAiReply(pieces[0] ?? '', q);
  const options = (q.options ?? []).map((o) => String(o ?? ''));
  if (q.type === 'judgement') return { error: ERR_JUDGE };
  if (q.type === 'completion' || options.every((o) => o.trim() === '')) {
    const blanks = pieces.map(unwrap).filter((b) => b !== '');
    return blanks.length > 0 ? { answer: blanks } : { error: ERR_COMPLETION };
  }
  const keys = options.map(looseKey);
  const picked: number[] = [];
  for (const piece of pieces) {
    const p = strictPick(piece, options, keys);
    if (p.kind !== 'one') return { error: `${ERR_CHOICE}：“${unwrap(piece).slice(0, 40)}”不是任何选项` };
    picked.push(p.index);
  }
  if (q.type === 'single' && new Set(picked).size > 1) return { error: ERR_SEVERAL };
  return { answer: joinPicked(picked, options) };
}
