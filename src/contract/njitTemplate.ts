/**
 * The roster templates a user downloads before an import, made from ROSTER_COLUMNS (the columns the
 * importer reads), so the two cannot drift apart: a CSV with the header row, and an Excel workbook
 * with the header row on its first sheet (the one the importer reads) and a sheet 填写说明 explaining
 * each column. For the server's route and the dev mocks only: this file needs ExcelJS, so it is not
 * part of the contract's index, which the browser imports.
 */
import ExcelJS from 'exceljs';
import { ROSTER_COLUMNS } from './njit';

export const ROSTER_TEMPLATE_NAME = '学生名单模板';

/** The header row, UTF-8 with a byte-order mark so that Excel on Chinese Windows opens it right. */
export function rosterTemplateCsv(): string {
  return `\uFEFF${ROSTER_COLUMNS.map((c) => c.label).join(',')}\r\n`;
}

export async function rosterTemplateXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('学生名单');
  sheet.addRow(ROSTER_COLUMNS.map((c) => c.label));
  sheet.getRow(1).font = { bold: true };
  ROSTER_COLUMNS.forEach((c, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = c.field === 'idCard' ? 22 : 14;
    // Text cells: Excel would otherwise turn an ID number into 3.2E+17 and drop a leading zero.
    column.numFmt = '@';
  });
  const help = wb.addWorksheet('填写说明');
  help.addRow(['列名', '是否必填', '填写要求']);
  help.getRow(1).font = { bold: true };
  for (const c of ROSTER_COLUMNS) help.addRow([c.label, c.required ? '必填' : '选填', c.hint]);
  help.addRow([]);
  help.addRow([
    '说明',
    '',
    '第一行是表头，从第二行起每行一名学生。必填列有误的行不导入；选填列有误时该项留空导入，并在预览中提示。',
  ]);
  help.getColumn(1).width = 12;
  help.getColumn(2).width = 10;
  help.getColumn(3).width = 60;
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** How a download names the file (RFC 6266 with the UTF-8 name). */
export function rosterTemplateDisposition(format: 'csv' | 'xlsx'): string {
  const name = `${ROSTER_TEMPLATE_NAME}.${format}`;
  return `attachment; filename="roster-template.${format}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const ROSTER_TEMPLATE_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;
