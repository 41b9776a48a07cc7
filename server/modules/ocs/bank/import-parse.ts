/**
 * Reads a question-bank file into questions with their row numbers: JSON (an array of objects, keys in
 * English or Chinese) or CSV (a header row; options in one column split by newline, `|` or `#`, or in
 * columns A, B, C…), in UTF-8 (with or without BOM) or GBK. A row that cannot become a question carries
 * its reason instead; whole-file problems are 400s.
 */
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { badRequest } from '../../../errors';
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

function decode(buf: Buffer): { text: string; encoding: 'utf-8' | 'gbk' } {
  const body = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: Excel's "CSV" on Chinese Windows writes GBK (gb18030 is its superset).
    return { text: iconv.decode(body, 'gb18030'), encoding: 'gbk' };
  }
}

const UNREADABLE = '无法识别的文件：请上传 JSON（题目数组）或带表头的 CSV（UTF-8 或 GBK 编码）';

function parseJson(text: string): ParsedRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw badRequest(`JSON 格式有误：${(err as Error).message.slice(0, 120)}`);
  }
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const inner = ['questions', 'data', 'items', 'list']
      .map((k) => (data as Record<string, unknown>)[k])
      .find(Array.isArray);
    if (inner) data = inner;
  }
  if (!Array.isArray(data)) throw badRequest('JSON 顶层应为题目数组，例如 [{"title": "…", "answer": "…"}]');
  return data.map((item, i) => {
    const row = i + 1;
    if (!item || typeof item !== 'object' || Array.isArray(item))
      return { row, error: '每一项应为对象（包含 title、answer 等字段）' };
    const q = toQuestion(item as Record<string, unknown>);
    return 'error' in q ? { row, error: q.error } : { row, question: q };
  });
}

function parseCsv(text: string): ParsedRow[] {
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
  const rows: ParsedRow[] = [];
  data.forEach((cells, i) => {
    if (cells.every((c) => String(c ?? '').trim() === '')) return;
    const rec: Record<string, unknown> = {};
    header.forEach((h, col) => {
      if (!(h in rec)) rec[h] = csvCell(cells[col] ?? '');
    });
    const q = toQuestion(rec);
    // The header is row 1, as a spreadsheet numbers it.
    rows.push('error' in q ? { row: i + 2, error: q.error } : { row: i + 2, question: q });
  });
  return rows;
}

export function parseBankFile(fileName: string, buf: Buffer): ParsedBankFile {
  if (buf.length === 0) throw badRequest('上传的文件是空的');
  const head = buf.subarray(0, 4096);
  if ((head[0] === 0xff && head[1] === 0xfe) || head.includes(0) || (head[0] === 0x50 && head[1] === 0x4b)) {
    throw badRequest(`${UNREADABLE}；Excel 表格请先另存为 CSV`);
  }
  const { text, encoding } = decode(buf);
  const first = text.trimStart()[0];
  const json = /\.json$/i.test(fileName) || (!/\.csv$/i.test(fileName) && (first === '[' || first === '{'));
  return { format: json ? 'json' : 'csv', encoding, rows: json ? parseJson(text) : parseCsv(text) };
}
