/**
 * A question-bank file prepared for its preview, on a worker thread (./importer.ts): parsed
 * (./import-parse.ts), each row made a stored question (prepareQuestion), duplicates within the file
 * found, and the report made, row by row as the parse hands them over: what stays is the report and
 * the prepared chunks, never the file's rows all at once. The valid questions come back as JSON texts of IMPORT_CHUNK questions
 * each: a few long strings cross the thread boundary in one copy each, where 150,000 objects would
 * hold the receiving event loop while it rebuilt them, and the commit parses one chunk at a time.
 * Nothing here touches the database.
 */
import type { BankImportPreview } from '../../../../src/contract';
import { parseBankFile, type BankParseLimits, type ParsedRow } from './import-parse';
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

/** The report and chunks being made from the rows read so far. */
class Preparation {
  total = 0;
  rejected = 0;
  valid = 0;
  readonly issues: BankImportPreview['issues'] = [];
  readonly sample: BankImportPreview['sample'] = [];
  readonly chunks: string[] = [];
  private chunk: PreparedQuestion[] = [];
  private readonly firstRow = new Map<string, number>();

  private reject(row: number, message: string) {
    this.rejected++;
    if (this.issues.length < MAX_ISSUES) this.issues.push({ row, message });
  }

  add(r: ParsedRow): void {
    this.total++;
    if ('error' in r) return this.reject(r.row, r.error);
    const p = prepareQuestion(r.question);
    if ('error' in p) return this.reject(r.row, p.error);
    const earlier = this.firstRow.get(identity(p));
    if (earlier !== undefined)
      return this.reject(r.row, `与第 ${earlier} 行是同一道题（题目、题型、选项相同），已跳过`);
    this.firstRow.set(identity(p), r.row);
    this.valid++;
    this.chunk.push(p);
    if (this.chunk.length === IMPORT_CHUNK) {
      this.chunks.push(JSON.stringify(this.chunk));
      this.chunk = [];
    }
    if (this.sample.length < SAMPLE_ROWS)
      this.sample.push({ row: r.row, title: p.title, type: p.type, options: p.options, answer: p.answer });
  }

  result(): PreparedBank {
    if (this.chunk.length) this.chunks.push(JSON.stringify(this.chunk));
    this.chunk = [];
    const { total, rejected, valid, issues, sample, chunks } = this;
    return { total, rejected, valid, issues, sample, chunks };
  }
}

/**
 * `limits` are the parse's (import-parse.ts: BANK_MAX_ROWS, BANK_MAX_ROW_BYTES); a test lowers them to
 * reach them with a small file.
 */
export async function prepareBankFile(fileName: string, buf: Buffer, limits?: BankParseLimits): Promise<PreparedBank> {
  let prep = new Preparation();
  parseBankFile(
    fileName,
    buf,
    {
      row: (r) => prep.add(r),
      restart: () => {
        prep = new Preparation();
      },
    },
    limits,
  );
  return prep.result();
}
