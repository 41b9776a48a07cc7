/**
 * Reads an uploaded roster file (CSV in UTF-8, UTF-8 with BOM or GBK; or XLSX) into raw rows keyed by
 * field, mapping columns by their header (学号, 姓名, … or English names). Refuses anything else
 * with a message a user can act on.
 */
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
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

/** One data row with its 1-based line number in the file (the header is line 1). */
export type RosterRowHandler = (line: number, raw: RawRow) => void;

/** What the whole file was, once every row has gone to the handler. */
export interface ParsedFile {
  format: 'csv' | 'xlsx';
  encoding: 'utf-8' | 'gbk' | null;
  /** Header text -> field, for the columns we recognised. */
  columns: Record<string, string>;
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

/** A row's raw fields, or null for a row with nothing in it. */
function rowOf(cells: unknown[], index: Map<number, ImportField>): RawRow | null {
  if (cells.every((c) => String(c ?? '').trim() === '')) return null;
  const raw: RawRow = {};
  for (const [col, field] of index) raw[field] = String(cells[col] ?? '');
  return raw;
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
 * What an .xlsx may inflate to before it is read: a 150,000-student roster inflates to about 60 MB;
 * spreadsheets compress 5–20×, zip bombs a thousandfold. The sheet is read as a stream (rows go to the
 * handler as they are parsed, the workbook is never held whole), so this bounds time more than memory.
 */
export const XLSX_LIMITS = { maxTotalBytes: 96 * 1024 * 1024, maxRatio: 60, maxEntries: 2000 };

async function parseXlsx(buf: Buffer, onRow: RosterRowHandler): Promise<ParsedFile> {
  const unreadable = () => badRequest('无法读取该 Excel 文件：文件可能已损坏，或不是 .xlsx 格式');
  try {
    await assertZipWithin(buf, XLSX_LIMITS);
  } catch (err) {
    throw (err as { errorCode?: string }).errorCode === 'BAD_ARCHIVE' ? unreadable() : err;
  }
  // Styles are read so that dates and numbers show as in the sheet (cell.text), as a full load did.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(buf), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let header: { index: Map<number, ImportField>; columns: Record<string, string> } | null = null;
  let sawSheet = false;
  let refusal: unknown = null;
  try {
    // Only the first sheet is read, but the reader is always run to its end: a sheet that comes before
    // the workbook's index in the zip is spooled to a temporary file, removed only once it is read.
    for await (const sheet of reader) {
      const first = !sawSheet;
      sawSheet = true;
      for await (const row of sheet) {
        if (!first || refusal) continue;
        const cells: string[] = [];
        row.eachCell({ includeEmpty: true }, (cell, col) => {
          cells[col - 1] = cell.text ?? '';
        });
        try {
          if (!header) header = mapHeader(cells);
          else {
            const raw = rowOf(cells, header.index);
            if (raw) onRow(row.number, raw);
          }
        } catch (err) {
          refusal = err;
        }
      }
    }
  } catch {
    throw unreadable();
  }
  if (refusal) throw refusal;
  if (!sawSheet || !header) throw badRequest('Excel 文件的第一个工作表是空的');
  return { format: 'xlsx', encoding: null, columns: (header as { columns: Record<string, string> }).columns };
}

function parseCsv(buf: Buffer, onRow: RosterRowHandler): ParsedFile {
  if (looksBinary(buf)) throw badRequest(NOT_A_SHEET);
  const { text, encoding } = decodeText(buf);
  // Row by row (step): the file's table is never held whole, only the rows the handler keeps.
  let line = 0;
  let header: { index: Map<number, ImportField>; columns: Record<string, string> } | null = null;
  let failure: Error | null = null;
  Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    step: (result, parser) => {
      line += 1;
      try {
        if (result.errors.some((e) => e.type === 'Quotes')) throw badRequest(`CSV 格式有误（第 ${line} 行引号不匹配）`);
        if (!header) {
          if (result.data.length < 2) throw badRequest(NOT_A_SHEET);
          header = mapHeader(result.data);
          return;
        }
        const raw = rowOf(result.data, header.index);
        if (raw) onRow(line, raw);
      } catch (err) {
        failure = err as Error;
        parser.abort();
      }
    },
  });
  if (failure) throw failure;
  if (!header) throw badRequest(NOT_A_SHEET);
  return { format: 'csv', encoding, columns: (header as { columns: Record<string, string> }).columns };
}

/** Reads the file, giving each data row to `onRow` as it is read; refuses what it cannot read. */
export async function parseRosterFile(fileName: string, buf: Buffer, onRow: RosterRowHandler): Promise<ParsedFile> {
  if (buf.length === 0) throw badRequest('上传的文件是空的');
  const isZip = buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04;
  const isOle = buf.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]));
  if (isOle) throw badRequest('不支持旧版 Excel（.xls），请在 Excel 中另存为 .xlsx 或 CSV 后再上传');
  if (isZip) return parseXlsx(buf, onRow);
  if (/\.(xlsx|xls)$/i.test(fileName)) throw badRequest('该文件不是有效的 Excel .xlsx 文件');
  return parseCsv(buf, onRow);
}
