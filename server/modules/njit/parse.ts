/**
 * Reads an uploaded roster file (CSV in UTF-8, UTF-8 with BOM or GBK; or XLSX) into raw rows keyed by
 * field, mapping columns by their header (学号, 姓名, … or English names). Refuses anything else
 * with a message a user can act on.
 */
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { badRequest } from '../../errors';
import { FIELD_LABELS, IMPORT_FIELDS, type ImportField, type RawRow } from './record';
import { assertZipWithin } from '../../lib/zip-guard';

/** Other names a column goes by, besides its label (FIELD_LABELS, the templates' header). */
const HEADER_ALIASES: Record<ImportField, string[]> = {
  studentNo: ['学生学号', '学生编号', 'studentno', 'studentnumber', 'studentid', 'no', 'sno'],
  name: ['学生姓名', '名字', 'name', 'studentname'],
  gender: ['gender', 'sex'],
  college: ['院系', '所在学院', '二级学院', 'college', 'school', 'department'],
  major: ['专业名称', 'major'],
  className: ['行政班', '班级名称', 'class', 'classname'],
  grade: ['入学年份', '入学年级', 'grade', 'year', 'enrollmentyear'],
  status: ['学籍状态', '在校状态', 'status'],
  phone: ['手机', '手机号码', '电话', '联系电话', 'phone', 'mobile', 'tel'],
  idCard: ['身份证', '身份证号码', '证件号码', 'idcard', 'idno', 'idnumber'],
  dormitory: ['寝室', '宿舍号', '寝室号', 'dormitory', 'dorm'],
};

const ALIAS_TO_FIELD = new Map<string, ImportField>();
for (const field of IMPORT_FIELDS) {
  for (const a of [FIELD_LABELS[field], ...HEADER_ALIASES[field]]) ALIAS_TO_FIELD.set(normaliseHeader(a), field);
}

function normaliseHeader(h: string): string {
  return h
    .replace(/^\uFEFF/, '')
    .replace(/[（(].*?[)）]/g, '')
    .replace(/[\s_\-*:：]/g, '')
    .toLowerCase();
}

export interface ParsedFile {
  format: 'csv' | 'xlsx';
  encoding: 'utf-8' | 'gbk' | null;
  /** Header text -> field, for the columns we recognised. */
  columns: Record<string, string>;
  /** Data rows with their 1-based line number in the file (the header is line 1). */
  rows: { line: number; raw: RawRow }[];
}

const NOT_A_SHEET = '无法识别的文件：请上传 CSV（UTF-8 或 GBK 编码）或 Excel .xlsx 表格';

function mapHeader(header: string[]): { index: Map<number, ImportField>; columns: Record<string, string> } {
  const index = new Map<number, ImportField>();
  const columns: Record<string, string> = {};
  const seen = new Set<ImportField>();
  header.forEach((h, i) => {
    const field = ALIAS_TO_FIELD.get(normaliseHeader(String(h ?? '')));
    if (field && !seen.has(field)) {
      seen.add(field);
      index.set(i, field);
      columns[
        String(h)
          .replace(/^\uFEFF/, '')
          .trim()
      ] = FIELD_LABELS[field];
    }
  });
  const missing = (['studentNo', 'name'] as const).filter((f) => !seen.has(f));
  if (missing.length) {
    throw badRequest(
      `表头缺少必需的列：${missing.map((f) => FIELD_LABELS[f]).join('、')}。第一行应为表头，例如：${IMPORT_FIELDS.map((f) => FIELD_LABELS[f]).join(',')}（可下载模板）`,
    );
  }
  return { index, columns };
}

function toRows(table: string[][], index: Map<number, ImportField>, firstLine = 2): ParsedFile['rows'] {
  const rows: ParsedFile['rows'] = [];
  table.forEach((cells, i) => {
    if (cells.every((c) => String(c ?? '').trim() === '')) return;
    const raw: RawRow = {};
    for (const [col, field] of index) raw[field] = String(cells[col] ?? '');
    rows.push({ line: firstLine + i, raw });
  });
  return rows;
}

/** UTF-8 (with or without BOM) when the bytes are valid UTF-8, else GBK (Excel's "CSV" on Chinese Windows). */
export function decodeText(buf: Buffer): { text: string; encoding: 'utf-8' | 'gbk' } {
  let body = buf;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) body = body.subarray(3);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(body, 'gb18030'), encoding: 'gbk' };
  }
}

function looksBinary(buf: Buffer): boolean {
  const head = buf.subarray(0, 4096);
  if (head[0] === 0xff && head[1] === 0xfe) return true; // UTF-16: not supported
  return head.includes(0);
}

/**
 * What an .xlsx may inflate to before ExcelJS, which inflates it whole, sees it: a 150,000-student
 * roster inflates to about 60 MB; spreadsheets compress 5–20×, zip bombs a thousandfold.
 */
export const XLSX_LIMITS = { maxTotalBytes: 96 * 1024 * 1024, maxRatio: 60, maxEntries: 2000 };

async function parseXlsx(buf: Buffer): Promise<ParsedFile> {
  const unreadable = () => badRequest('无法读取该 Excel 文件：文件可能已损坏，或不是 .xlsx 格式');
  try {
    await assertZipWithin(buf, XLSX_LIMITS);
  } catch (err) {
    throw (err as { errorCode?: string }).errorCode === 'BAD_ARCHIVE' ? unreadable() : err;
  }
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw unreadable();
  }
  const sheet = wb.worksheets[0];
  if (!sheet || sheet.rowCount === 0) throw badRequest('Excel 文件的第一个工作表是空的');
  const table: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cell.text ?? '';
    });
    table.push(cells);
  });
  const [header, ...data] = table;
  const { index, columns } = mapHeader(header ?? []);
  return { format: 'xlsx', encoding: null, columns, rows: toRows(data, index) };
}

function parseCsv(buf: Buffer): ParsedFile {
  if (looksBinary(buf)) throw badRequest(NOT_A_SHEET);
  const { text, encoding } = decodeText(buf);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: false });
  const fatal = parsed.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw badRequest(`CSV 格式有误（第 ${(fatal.row ?? 0) + 1} 行引号不匹配）`);
  const [header, ...data] = parsed.data;
  if (!header || header.length < 2) throw badRequest(NOT_A_SHEET);
  const { index, columns } = mapHeader(header);
  return { format: 'csv', encoding, columns, rows: toRows(data, index) };
}

export async function parseRosterFile(fileName: string, buf: Buffer): Promise<ParsedFile> {
  if (buf.length === 0) throw badRequest('上传的文件是空的');
  const isZip = buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
  const isOle = buf.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]));
  if (isOle) throw badRequest('不支持旧版 Excel（.xls），请在 Excel 中另存为 .xlsx 或 CSV 后再上传');
  if (isZip) return parseXlsx(buf);
  if (/\.(xlsx|xls)$/i.test(fileName)) throw badRequest('该文件不是有效的 Excel .xlsx 文件');
  return parseCsv(buf);
}
