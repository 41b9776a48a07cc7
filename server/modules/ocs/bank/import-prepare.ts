/**
 * A question-bank file prepared for its preview, on a worker thread (./importer.ts): parsed
 * (./import-parse.ts), each row made a stored question (prepareQuestion), duplicates within the file
 * found, and the report made. The valid questions come back as JSON texts of IMPORT_CHUNK questions
 * each: a few long strings cross the thread boundary in one copy each, where 150,000 objects would
 * hold the receiving event loop while it rebuilt them, and the commit parses one chunk at a time.
 * Nothing here touches the database.
 */
import type { BankImportPreview } from '../../../../src/contract';
import { parseBankFile } from './import-parse';
import { prepareQuestion, type PreparedQuestion } from './question';

/** Questions a chunk holds: what the commit writes in one statement. */
export const IMPORT_CHUNK = 2000;
const MAX_ISSUES = 200;
const SAMPLE_ROWS = 20;

export interface PreparedBank {
  total: number;
  rejected: number;
  valid: number;
  issues: BankImportPreview['issues'];
  sample: BankImportPreview['sample'];
  /** The valid questions, each chunk a JSON array of up to IMPORT_CHUNK PreparedQuestion. */
  chunks: string[];
}

const identity = (q: PreparedQuestion) => `${q.title_hash}|${q.type}|${q.options_hash}`;

export async function prepareBankFile(fileName: string, buf: Buffer): Promise<PreparedBank> {
  const parsed = parseBankFile(fileName, buf);
  const issues: BankImportPreview['issues'] = [];
  const sample: BankImportPreview['sample'] = [];
  const chunks: string[] = [];
  let chunk: PreparedQuestion[] = [];
  const firstRow = new Map<string, number>();
  let rejected = 0;
  let valid = 0;
  const reject = (row: number, message: string) => {
    rejected++;
    if (issues.length < MAX_ISSUES) issues.push({ row, message });
  };
  for (const r of parsed.rows) {
    if ('error' in r) {
      reject(r.row, r.error);
      continue;
    }
    const p = prepareQuestion(r.question);
    if ('error' in p) {
      reject(r.row, p.error);
      continue;
    }
    const earlier = firstRow.get(identity(p));
    if (earlier !== undefined) {
      reject(r.row, `与第 ${earlier} 行是同一道题（题目、题型、选项相同），已跳过`);
      continue;
    }
    firstRow.set(identity(p), r.row);
    valid++;
    chunk.push(p);
    if (chunk.length === IMPORT_CHUNK) {
      chunks.push(JSON.stringify(chunk));
      chunk = [];
    }
    if (sample.length < SAMPLE_ROWS)
      sample.push({ row: r.row, title: p.title, type: p.type, options: p.options, answer: p.answer });
  }
  if (chunk.length) chunks.push(JSON.stringify(chunk));
  return { total: parsed.rows.length, rejected, valid, issues, sample, chunks };
}
