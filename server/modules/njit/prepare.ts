/**
 * A roster file prepared for its preview, on a worker thread (./imports.ts): parsed (./parse.ts), each
 * row validated, duplicates within the file found, and the report made — the issues (the first
 * MAX_ISSUES), a masked sample, the counts. The valid rows go to a spool file (server/lib/spool.ts) in
 * JSON chunks of ROSTER_CHUNK rows, each written as soon as it is full: what this thread holds is the
 * report and one chunk, whatever the file's size. Nothing here touches the database.
 */
import type { ImportIssue, ImportPreview } from '../../../src/contract';
import fs from 'node:fs';
import { SpoolWriter, type Spool } from '../../lib/spool';
import { parseRosterFile, type ParsedFile } from './parse';
import { FIELD_LABELS, maskIdCard, maskPhone, validateRow, type RowIssue, type StudentInput } from './record';

const MAX_ISSUES = 500;
const SAMPLE_ROWS = 20;
/** Valid rows a spooled chunk holds: what the preview stages in one statement. */
export const ROSTER_CHUNK = 2000;

export interface PreparedRoster {
  format: ParsedFile['format'];
  encoding: ParsedFile['encoding'];
  columns: ParsedFile['columns'];
  totalRows: number;
  rejected: number;
  issues: ImportIssue[];
  issueCount: number;
  /** Optional values that were not valid: imported blank (the first MAX_ISSUES). */
  warnings: ImportIssue[];
  warningCount: number;
  sample: ImportPreview['sample'];
  /** The valid rows, in chunks each a JSON array of up to ROSTER_CHUNK StudentInput (none without a spool file). */
  spool: Spool | null;
  validRows: number;
}

/** prepareRoster of an upload saved to `uploadFile` (server/http/upload.ts), as the worker thread runs it. */
export async function prepareRosterUpload(fileName: string, uploadFile: string, spoolFile: string) {
  return prepareRoster(fileName, await fs.promises.readFile(uploadFile), spoolFile);
}

/** The valid rows are written to `spoolFile` (made by the caller, who removes it); without one only the report is made. */
export async function prepareRoster(fileName: string, buf: Buffer, spoolFile?: string): Promise<PreparedRoster> {
  const spool = spoolFile ? new SpoolWriter(spoolFile, ROSTER_CHUNK) : null;
  try {
    return await prepare(fileName, buf, spool);
  } finally {
    spool?.close();
  }
}

async function prepare(fileName: string, buf: Buffer, spool: SpoolWriter | null): Promise<PreparedRoster> {
  const issues: ImportIssue[] = [];
  let issueCount = 0;
  const warnings: ImportIssue[] = [];
  let warningCount = 0;
  let validRows = 0;
  const sample: ImportPreview['sample'] = [];
  const firstLine = new Map<string, number>();
  let rejected = 0;
  let totalRows = 0;

  const parsed = await parseRosterFile(fileName, buf, (line, raw) => {
    totalRows += 1;
    const { record, issues: rowIssues, warnings: rowWarnings } = validateRow(raw);
    const issueOf = (i: RowIssue, suffix = '') => ({
      row: line,
      field: FIELD_LABELS[i.field],
      message: `${i.message}${suffix}`,
    });
    // A refused row reports all its problems at once, so that the file can be fixed in one go.
    const problems = record ? rowIssues.map((i) => issueOf(i)) : [...rowIssues, ...rowWarnings].map((i) => issueOf(i));
    if (record) {
      const earlier = firstLine.get(record.student_no);
      if (earlier !== undefined) {
        problems.push({
          row: line,
          field: FIELD_LABELS.studentNo,
          message: `学号在文件中重复（与第 ${earlier} 行相同）`,
        });
      } else {
        firstLine.set(record.student_no, line);
      }
    }
    if (problems.length > 0) {
      rejected += 1;
      issueCount += problems.length;
      for (const p of problems) if (issues.length < MAX_ISSUES) issues.push(p);
      return;
    }
    // Imported, with the optional values that were not valid left blank.
    warningCount += rowWarnings.length;
    for (const w of rowWarnings) if (warnings.length < MAX_ISSUES) warnings.push(issueOf(w, '，该项留空导入'));
    spool?.push(JSON.stringify(record satisfies StudentInput | undefined));
    validRows += 1;
    if (sample.length < SAMPLE_ROWS) {
      sample.push({
        row: line,
        studentNo: record!.student_no,
        name: record!.name,
        gender: record!.gender,
        college: record!.college,
        major: record!.major,
        className: record!.class_name,
        grade: record!.grade,
        status: record!.status,
        phone: maskPhone(record!.phone),
        idCard: maskIdCard(record!.id_card),
        dormitory: record!.dormitory,
      });
    }
  });
  return {
    format: parsed.format,
    encoding: parsed.encoding,
    columns: parsed.columns,
    totalRows,
    rejected,
    issues,
    issueCount,
    warnings,
    warningCount,
    sample,
    spool: spool?.close() ?? null,
    validRows,
  };
}
