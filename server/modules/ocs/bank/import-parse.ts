/**
 * Reads a question-bank file into questions with their row numbers: JSON (an array of objects, keys in
 * English or Chinese) or CSV (a header row; options in one column split by newline, `|` or `#`, or in
 * columns A, B, C…), in UTF-8 (with or without BOM) or GBK. A row that cannot become a question carries
 * its reason instead; whole-file problems are 400s, and a file beyond the limits (BANK_MAX_ROWS,
 * BANK_MAX_ROW_BYTES) a 413. Rows are handed over one at a time (RowSink), and a JSON file is parsed as it
 * is read, so the file never exists in memory as one big tree of objects.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { JSONParser, TokenType } from '@streamparser/json';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { OCS_BANK_MAX_ROWS } from '../../../../src/contract/ocs';
import { badRequest, HttpError } from '../../../errors';
import { csvCell } from '../../../lib/csv';
import type { QuestionInput } from './question';
import { normalizeType, plainText, splitOptions, type OcsQuestionType } from './normalize';

export type ParsedRow = { row: number; question: QuestionInput } | { row: number; error: string };

export interface ParsedBankFile {
  format: 'json' | 'csv';
  encoding: 'utf-8' | 'gbk';
  rows: ParsedRow[];
}

type Field = 'title' | 'type' | 'options' | 'answer';

const ALIASES: Record<Field, string[]> = {
  title: ['title', 'question', 'questiontitle', 'stem', '题目', '题干', '问题', '试题', '题目内容'],
  type: ['type', 'questiontype', 'kind', '题型', '类型', '题目类型'],
  options: ['options', 'option', 'choices', 'choice', '选项', '选项内容', '备选项'],
  answer: ['answer', 'answers', 'correct', 'correctanswer', 'key', '答案', '正确答案', '参考答案', '标准答案'],
};
const FIELD_OF = new Map<string, Field>();
for (const [field, names] of Object.entries(ALIASES) as [Field, string[]][])
  for (const n of names) FIELD_OF.set(n, field);

const normKey = (k: string) =>
  k
    .replace(/^\uFEFF/, '')
    .replace(/[\s_\-:：]/g, '')
    .toLowerCase();
/** `A`, `选项A`, `option a`, `A选项`: the column of one option. Returns its index (A = 0). */
function optionColumn(key: string): number | null {
  const m = /^(?:选项|option)?([a-z])(?:选项)?$/.exec(normKey(key));
  return m ? m[1]!.charCodeAt(0) - 97 : null;
}

const TYPE_EXTRA: Record<string, OcsQuestionType> = {
  any: 'any',
  不限: 'any',
  单项选择: 'single',
  单项选择题: 'single',
  选择题: 'single',
  多项选择: 'multiple',
  多项选择题: 'multiple',
  不定项选择题: 'multiple',
  是非题: 'judgement',
  对错题: 'judgement',
  填空题目: 'completion',
};

/** An empty type means "any"; an unknown one is an error rather than a silent guess. */
function parseType(raw: unknown): OcsQuestionType | { error: string } {
  if (raw === undefined || raw === null || raw === '') return 'any';
  if (typeof raw !== 'string') return { error: '题型必须是文本' };
  const key = raw.trim().toLowerCase();
  if (!key) return 'any';
  const t = TYPE_EXTRA[key] ?? normalizeType(key);
  if (t === 'any' && TYPE_EXTRA[key] !== 'any') {
    return {
      error: `题型「${raw.slice(0, 20)}」无法识别（可用：single/multiple/judgement/completion 或 单选/多选/判断/填空）`,
    };
  }
  return t;
}

const scalar = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

/** One options cell: newline-, `|`- or `#`-separated, in that order of preference. */
function splitOptionCell(s: string): string[] {
  const sep = /\r?\n/.test(s) ? /\r?\n/ : s.includes('|') ? '|' : '#';
  return s.split(sep);
}

function parseOptions(raw: unknown, columns: string[]): string[] | { error: string } {
  let list: string[];
  if (raw === undefined || raw === null || raw === '') list = [];
  else if (typeof raw === 'string') list = jsonTextList(raw) ?? splitOptionCell(raw);
  else if (Array.isArray(raw)) {
    const items = raw.map(scalar);
    if (items.some((i) => i === null)) return { error: '选项必须是文本或文本数组' };
    list = items as string[];
  } else return { error: '选项必须是文本或文本数组' };
  list = [...list, ...columns].map(plainText).filter((o) => o.trim() !== '');
  return list.length ? splitOptions(list) : [];
}

/**
 * One answer written as text (a file's cell, a user's proposal), in pieces: a JSON array of texts (what
 * the export writes when a piece contains `#`), or its lines; blanks on a single line (a completion, or
 * any question without options) split on `#` when that leaves no piece empty (`C#` stays whole). Choice
 * answers split on `#` later, against the options (question.ts).
 */
export function answerCellPieces(s: string, blanks: boolean): string[] {
  const list = jsonTextList(s);
  if (list) return list;
  const lines = s.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length !== 1 || !blanks) return lines;
  const parts = lines[0]!.split('#');
  return parts.every((p) => p.trim() !== '') ? parts : lines;
}

/** One answer field of a bank file, in pieces (answerCellPieces), markup turned into text. */
function parseAnswer(raw: unknown, blanks: boolean): string[] | { error: string } {
  let pieces: string[];
  if (Array.isArray(raw)) {
    const items = raw.map(scalar);
    if (items.some((i) => i === null)) return { error: '答案必须是文本或文本数组' };
    pieces = items as string[];
  } else {
    const s = scalar(raw);
    if (s === null) return raw === undefined || raw === null ? [] : { error: '答案必须是文本或文本数组' };
    pieces = answerCellPieces(s, blanks);
  }
  return pieces.map(plainText);
}

/** A cell that is a JSON array of texts (`["C#", "F#"]`), else null. */
function jsonTextList(s: string): string[] | null {
  if (!s.trimStart().startsWith('[')) return null;
  try {
    const v: unknown = JSON.parse(s);
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
  } catch {
    return null;
  }
}

/** Builds one question from a record keyed by the file's own names. */
export function toQuestion(rec: Record<string, unknown>): QuestionInput | { error: string } {
  const f: Partial<Record<Field, unknown>> = {};
  const optionCols: string[] = [];
  for (const [key, value] of Object.entries(rec)) {
    const field = FIELD_OF.get(normKey(key));
    if (field) {
      if (f[field] === undefined) f[field] = value;
      continue;
    }
    const col = optionColumn(key);
    const v = scalar(value);
    if (col !== null && v !== null && v.trim() !== '') optionCols[col] = v;
  }
  if (f.title === undefined || f.title === null) return { error: '缺少题目' };
  if (typeof f.title !== 'string') return { error: '题目必须是文本' };
  const type = parseType(f.type);
  if (typeof type === 'object') return type;
  const options = parseOptions(
    f.options,
    optionCols.filter((o) => o !== undefined),
  );
  if (!Array.isArray(options)) return options;
  const answer = parseAnswer(f.answer, type === 'completion' || (type === 'any' && options.length === 0));
  if (!Array.isArray(answer)) return answer;
  return { title: f.title, type, options, answer };
}

const UNREADABLE = '无法识别的文件：请上传 JSON（题目数组）或带表头的 CSV（UTF-8 或 GBK 编码）';
const NOT_A_LIST = 'JSON 顶层应为题目数组，例如 [{"title": "…", "answer": "…"}]';

/** How many questions one file may hold: the contract's OCS_BANK_MAX_ROWS (the page states it too). */
export const BANK_MAX_ROWS = OCS_BANK_MAX_ROWS;
/**
 * The most bytes one question (an element of the list) may span in a JSON file. A real question is a
 * few kilobytes (a title of 2000 characters, 26 options, an answer of 4000, each character up to six
 * bytes as a \u escape); past this an element is refused as soon as the parser has read that far,
 * instead of being built whole in the worker's memory.
 */
export const BANK_MAX_ROW_BYTES = 1024 * 1024;

export interface BankParseLimits {
  maxRows: number;
  maxRowBytes: number;
}
const LIMITS: BankParseLimits = { maxRows: BANK_MAX_ROWS, maxRowBytes: BANK_MAX_ROW_BYTES };

const tooManyRows = (max: number) =>
  new HttpError(413, 'TOO_MANY_ROWS', `文件中的题目超过 ${max} 道，已拒绝（未导入任何题目）；请拆分后分批上传`);

/** Where parsed rows go, one at a time; `restart` forgets the rows so far (a JSON list that replaces another). */
export interface RowSink {
  row(r: ParsedRow): void;
  restart(): void;
}

function rowOf(row: number, item: unknown): ParsedRow {
  if (!item || typeof item !== 'object' || Array.isArray(item))
    return { row, error: '每一项应为对象（包含 title、answer 等字段）' };
  const q = toQuestion(item as Record<string, unknown>);
  return 'error' in q ? { row, error: q.error } : { row, question: q };
}

/** The fields of a top-level object that may hold the list, the first of them that is a list winning. */
const LIST_FIELDS = ['questions', 'data', 'items', 'list'];
const MAX_DEPTH = 16;
/** Bytes fed to the parser at a time: the granularity of the size checks. */
const FEED_BYTES = 64 * 1024;

/**
 * Reads the JSON list one element at a time (a streaming parser) instead of parsing the whole file:
 * what the file weighs in memory is one element, not the whole bank. The list is the top-level array,
 * or the first list field of a top-level object (LIST_FIELDS), as JSON.parse and a lookup found it before.
 * Only the list's elements are kept, each until its row is made; anything else is read and dropped.
 */
function parseJson(
  pieces: Iterable<Uint8Array>,
  first: string | undefined,
  sink: RowSink,
  limits: BankParseLimits,
): void {
  const objectForm = first === '{';
  const parser = new JSONParser({
    paths: objectForm ? LIST_FIELDS.map((f) => `$.${f}.*`) : ['$.*'],
    keepStack: false,
  });
  let failure: unknown = null;
  parser.onError = (err) => {
    failure ??= err;
  };
  // Where the parser is, from the tokens (they arrive before the value they complete is emitted).
  let depth = 0;
  let top: 'array' | 'object' | 'other' | null = null;
  let pendingKey: string | null = null;
  let memberKey: string | null = null;
  /** The LIST_FIELDS list the parser is inside (object form), and the one whose rows count. */
  let inList: string | null = null;
  let chosen: string | null = null;
  let listRows = 0;
  /** The offset of the last token between two elements: an element spans from there. */
  let boundary = 0;
  let fed = 0;
  const elementDepth = () => (objectForm ? (inList ? 2 : 1) : 1);
  const checkSpan = (at: number) => {
    if (top !== null && depth > 0 && at - boundary > limits.maxRowBytes) {
      throw new HttpError(
        413,
        'ROW_TOO_LARGE',
        `文件中有一道题超过 ${Math.round(limits.maxRowBytes / 1024)} KB（约第 ${listRows + 1} 项），已拒绝；请检查文件内容`,
      );
    }
  };
  parser.onToken = ({ token, value, offset }) => {
    checkSpan(offset);
    if (top === null)
      top = token === TokenType.LEFT_BRACKET ? 'array' : token === TokenType.LEFT_BRACE ? 'object' : 'other';
    if (objectForm && depth === 1) {
      if (token === TokenType.STRING) pendingKey = value as string;
      else if (token === TokenType.COLON) memberKey = pendingKey;
      else if (token === TokenType.LEFT_BRACKET && memberKey !== null && LIST_FIELDS.includes(memberKey)) {
        inList = memberKey;
        listRows = 0;
        // A list field replaces the rows of one it outranks (or of the same field, as JSON.parse keeps the last).
        if (chosen === null || LIST_FIELDS.indexOf(inList) <= LIST_FIELDS.indexOf(chosen)) {
          chosen = inList;
          sink.restart();
        }
      }
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      // A question is an object of lists of texts; deeper nesting is no bank, and each level costs the
      // parser a frame, so a file of `[[[[…` is refused at once rather than at the element's byte limit.
      if (++depth > MAX_DEPTH) throw badRequest(`JSON 嵌套层数超过 ${MAX_DEPTH} 层，不是题库文件`);
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) {
      depth--;
      if (objectForm && depth === 1) inList = null;
    }
    if (depth <= elementDepth()) boundary = offset;
  };
  parser.onValue = ({ value, key, parent }) => {
    if (!Array.isArray(parent) || typeof key !== 'number') return;
    if (objectForm && inList === null) return;
    listRows++;
    if (listRows > limits.maxRows) throw tooManyRows(limits.maxRows);
    if (!objectForm || inList === chosen) sink.row(rowOf(key + 1, value));
  };
  for (const piece of pieces) {
    parser.write(piece);
    fed += piece.length;
    checkSpan(fed);
    if (failure !== null) break;
  }
  if (failure === null && !parser.isEnded) parser.end();
  if (failure !== null) {
    if (failure instanceof HttpError) throw failure;
    throw badRequest(`JSON 格式有误：${String((failure as Error).message ?? failure).slice(0, 120)}`);
  }
  if (top === null) throw badRequest('JSON 格式有误：文件中没有内容');
  if (top === 'other' || (top === 'object' && chosen === null)) throw badRequest(NOT_A_LIST);
}

function parseCsv(text: string, sink: RowSink, limits: BankParseLimits): void {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw badRequest(`CSV 格式有误（第 ${(fatal.row ?? 0) + 1} 行引号不匹配）`);
  const [header, ...data] = parsed.data;
  if (!header || header.length < 2) throw badRequest(UNREADABLE);
  const fields = new Set(header.map((h) => FIELD_OF.get(normKey(String(h ?? '')))));
  const missing = [fields.has('title') ? null : '题目', fields.has('answer') ? null : '答案'].filter(Boolean);
  if (missing.length) {
    throw badRequest(
      `表头缺少必需的列：${missing.join('、')}。第一行应为表头，例如：题目,题型,选项,答案 或 题目,题型,A,B,C,D,答案`,
    );
  }
  let rows = 0;
  data.forEach((cells, i) => {
    if (cells.every((c) => String(c ?? '').trim() === '')) return;
    if (++rows > limits.maxRows) throw tooManyRows(limits.maxRows);
    const rec: Record<string, unknown> = {};
    header.forEach((h, col) => {
      if (!(h in rec)) rec[h] = csvCell(cells[col] ?? '');
    });
    const q = toQuestion(rec);
    // The header is row 1, as a spreadsheet numbers it.
    sink.row('error' in q ? { row: i + 2, error: q.error } : { row: i + 2, question: q });
  });
}

/** The first character of the file that is not white space (ASCII in UTF-8 and GBK alike). */
function firstChar(body: Uint8Array): string | undefined {
  for (const b of body) if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return String.fromCharCode(b);
  return undefined;
}

/** FEED_BYTES pieces of `body`. */
function* piecesOf(body: Uint8Array): Generator<Uint8Array> {
  for (let at = 0; at < body.length; at += FEED_BYTES) yield body.subarray(at, at + FEED_BYTES);
}

/** The file's start: refuses what is no text, and says where the text begins (after a UTF-8 BOM). */
function checkHead(head: Buffer): number {
  if ((head[0] === 0xff && head[1] === 0xfe) || head.includes(0) || (head[0] === 0x50 && head[1] === 0x4b)) {
    throw badRequest(`${UNREADABLE}；Excel 表格请先另存为 CSV`);
  }
  return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
}

const isJsonFile = (fileName: string, first: string | undefined) =>
  /\.json$/i.test(fileName) || (!/\.csv$/i.test(fileName) && (first === '[' || first === '{'));

/**
 * Reads the file's rows into `sink`, one at a time, and says what the file was. A JSON file is parsed as
 * it is read (parseJson); more than `limits.maxRows` rows, or a JSON element beyond `limits.maxRowBytes`,
 * is a 413 thrown before the rest is read.
 */
export function parseBankFile(
  fileName: string,
  buf: Buffer,
  sink: RowSink,
  limits: BankParseLimits = LIMITS,
): Pick<ParsedBankFile, 'format' | 'encoding'> {
  if (buf.length === 0) throw badRequest('上传的文件是空的');
  const body = buf.subarray(checkHead(buf.subarray(0, 4096)));
  // Not UTF-8: Excel's "CSV" on Chinese Windows writes GBK (gb18030 is its superset).
  const encoding = isUtf8(body) ? 'utf-8' : 'gbk';
  const first = firstChar(body);
  const json = isJsonFile(fileName, first);
  if (json)
    parseJson(piecesOf(encoding === 'gbk' ? Buffer.from(iconv.decode(body, 'gb18030')) : body), first, sink, limits);
  else parseCsv(encoding === 'gbk' ? iconv.decode(body, 'gb18030') : body.toString('utf8'), sink, limits);
  return { format: json ? 'json' : 'csv', encoding };
}

/** FEED_BYTES pieces of the file from `offset` on, read as they are needed. */
function* piecesOfFile(fd: number, offset: number): Generator<Uint8Array> {
  for (let at = offset; ;) {
    // A buffer of its own for each piece: the parser may keep a piece's bytes until the next arrives.
    const buf = Buffer.allocUnsafe(FEED_BYTES);
    const n = fs.readSync(fd, buf, 0, FEED_BYTES, at);
    if (n === 0) return;
    at += n;
    yield buf.subarray(0, n);
  }
}

/**
 * parseBankFile of a file on disk (an upload saved as it arrived). A JSON file in UTF-8, what exports
 * write, is read and parsed FEED_BYTES at a time and never held whole (a first pass checks that it is
 * UTF-8); anything else (CSV, GBK) is read whole and goes to parseBankFile.
 */
export function parseBankFileAt(
  fileName: string,
  file: string,
  sink: RowSink,
  limits: BankParseLimits = LIMITS,
): Pick<ParsedBankFile, 'format' | 'encoding'> {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const headBytes = fs.readSync(fd, head, 0, head.length, 0);
    if (headBytes > 0) {
      const start = checkHead(head.subarray(0, headBytes));
      const first = firstChar(head.subarray(start, headBytes));
      if (isJsonFile(fileName, first) && isUtf8File(fd, start)) {
        parseJson(piecesOfFile(fd, start), first, sink, limits);
        return { format: 'json', encoding: 'utf-8' };
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return parseBankFile(fileName, fs.readFileSync(file), sink, limits);
}

function isUtf8File(fd: number, offset: number): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for (const piece of piecesOfFile(fd, offset)) decoder.decode(piece, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** Every row of a file at once: for files known to be small (the shipped sample bank). */
export function parseBankRows(fileName: string, buf: Buffer): ParsedBankFile {
  let rows: ParsedRow[] = [];
  const parsed = parseBankFile(fileName, buf, {
    row: (r) => rows.push(r),
    restart: () => {
      rows = [];
    },
  });
  return { ...parsed, rows };
}
