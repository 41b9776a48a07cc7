/**
 * A roster file prepared for its preview, on a worker thread (./imports.ts): parsed (./parse.ts), each
 * row validated, duplicates within the file found, and the report made — the issues (the first
 * MAX_ISSUES), a masked sample, the counts — with the valid rows as the one JSON text the staging row
 * stores and their student numbers (to count those already there). Nothing here touches the database.
 */
import type { ImportIssue, ImportPreview } from '../../../src/contract';
import { parseRosterFile, type ParsedFile } from './parse';
import { FIELD_LABELS, maskIdCard, maskPhone, validateRow, type RowIssue, type StudentInput } from './record';

const MAX_ISSUES = 500;
const SAMPLE_ROWS = 20;

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
  /** The valid rows (StudentInput[]) as JSON. */
  validJson: string;
  /**
   * Their student numbers, one a line: a single text crosses the thread boundary in one copy, where
   * an array of 150,000 strings would take the receiving event loop a while to rebuild.
   */
  studentNos: string;
  validRows: number;
}

export async function prepareRoster(fileName: string, buf: Buffer): Promise<PreparedRoster> {
  const issues: ImportIssue[] = [];
  let issueCount = 0;
  const warnings: ImportIssue[] = [];
  let warningCount = 0;
  // Each valid row is kept as its JSON text only (about a third of the object's size in the heap).
  const validJson: string[] = [];
  const studentNos: string[] = [];
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
    validJson.push(JSON.stringify(record satisfies StudentInput | undefined));
    studentNos.push(record!.student_no);
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
    validJson: `[${validJson.join(',')}]`,
    studentNos: studentNos.join('\n'),
    validRows: studentNos.length,
  };
}
