/**
 * A question-bank file prepared for its preview, on a worker thread (./importer.ts): parsed
 * (./import-parse.ts), each row made a stored question (prepareQuestion), duplicates within the file
 * found, and the report made, row by row as the parse hands them over: what stays is the report, never
 * the file's rows. The valid questions go to a spool file (server/lib/spool.ts) in chunks of IMPORT_CHUNK,
 * each written as soon as it is full, so memory holds one chunk whatever the file's size; the commit
 * reads them back one chunk at a time. Nothing here touches the database.
 */
import type { BankImportPreview } from '../../../../src/contract';
import { parseBankFile, parseBankFileAt, type BankParseLimits, type ParsedRow, type RowSink } from './import-parse';
import { prepareQuestion, type PreparedQuestion } from './question';
import { SpoolWriter, type Spool } from '../../../lib/spool';

/** Questions a spooled chunk holds: what the preview counts and the commit reads in one go. */
export const IMPORT_CHUNK = 2000;
const MAX_ISSUES = 200;
const SAMPLE_ROWS = 20;

export interface PreparedBank {
  total: number;
  rejected: number;
  valid: number;
  issues: BankImportPreview['issues'];
  sample: BankImportPreview['sample'];
  /** The valid questions, each chunk a JSON array of up to IMPORT_CHUNK PreparedQuestion (none without a spool file). */
  spool: Spool | null;
}

const identity = (q: PreparedQuestion) => `${q.title_hash}|${q.type}|${q.options_hash}`;

/** The report made from the rows read so far, and the chunk being filled. */
class Preparation {
  total = 0;
  rejected = 0;
  valid = 0;
  readonly issues: BankImportPreview['issues'] = [];
  readonly sample: BankImportPreview['sample'] = [];
  private readonly firstRow = new Map<string, number>();

  constructor(private readonly spool: SpoolWriter | null) {}

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
    this.spool?.push(JSON.stringify(p satisfies PreparedQuestion));
    if (this.sample.length < SAMPLE_ROWS)
      this.sample.push({ row: r.row, title: p.title, type: p.type, options: p.options, answer: p.answer });
  }

  result(): PreparedBank {
    const { total, rejected, valid, issues, sample } = this;
    return { total, rejected, valid, issues, sample, spool: this.spool?.close() ?? null };
  }
}

/**
 * prepareBankFile of an upload saved to `uploadFile` (server/http/upload.ts), as the worker thread runs
 * it: a UTF-8 JSON file is read as it is parsed, never whole (parseBankFileAt).
 */
export async function prepareBankUpload(fileName: string, uploadFile: string, spoolFile: string) {
  return prepare((sink) => parseBankFileAt(fileName, uploadFile, sink), spoolFile);
}

/**
 * `limits` are the parse's (import-parse.ts: BANK_MAX_ROWS, BANK_MAX_ROW_BYTES); a test lowers them to
 * reach them with a small file. The valid questions are written to `spoolFile` (made by the caller, who
 * removes it); without one only the report is made.
 */
export async function prepareBankFile(
  fileName: string,
  buf: Buffer,
  limits?: BankParseLimits,
  spoolFile?: string,
): Promise<PreparedBank> {
  return prepare((sink) => parseBankFile(fileName, buf, sink, limits), spoolFile);
}

/** The preparation of the rows `parse` hands over. */
function prepare(parse: (sink: RowSink) => void, spoolFile: string | undefined): PreparedBank {
  const spool = spoolFile ? new SpoolWriter(spoolFile, IMPORT_CHUNK) : null;
  let prep = new Preparation(spool);
  try {
    parse({
      row: (r) => prep.add(r),
      restart: () => {
        spool?.reset();
        prep = new Preparation(spool);
      },
    });
  } catch (err) {
    spool?.close();
    throw err;
  }
  return prep.result();
}
