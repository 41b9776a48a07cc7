/**
 * The two uploads the import memory bench sends (bench/imports/run.ts), made from the seeded synthetic
 * data: a roster .xlsx whose sheet XML inflates about tenfold (about 9 MB of file, 90 MB of XML; inline
 * strings, as some exporters write them), and a question-bank JSON of about 45 MB.
 *
 *   npx tsx bench/imports/generate.ts [--out DIR] [--rows N] [--remark CHARS] [--questions N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { syntheticStudents } from '../njit/synthetic';
import { generateQuestions } from '../ocs/synthetic';

export const DEFAULT_DIR = path.join(os.tmpdir(), 'portal-import-bench');
export const ROSTER_FILE = 'roster-90mb-xml.xlsx';
export const BANK_FILE = 'bank-45mb.json';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** The size of each entry of a zip once inflated, from its directory. */
function inflatedSizes(file: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const sizes: Record<string, number> = {};
      zip.on('entry', (e: yauzl.Entry) => {
        sizes[e.fileName] = e.uncompressedSize;
        zip.readEntry();
      });
      zip.on('end', () => resolve(sizes));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A roster with a 备注 (remark) column the import ignores, of `remarkChars` repetitive characters a row. */
export async function writeRoster(file: string, rows: number, remarkChars: number): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const sheet = writer.addWorksheet('学生名单');
  const students = syntheticStudents(rows, { seed: 5 });
  const remark = '无'.repeat(remarkChars);
  sheet.addRow([...Object.keys(students[0]!), '备注']).commit();
  for (const s of students) sheet.addRow([...Object.values(s), remark]).commit();
  sheet.commit();
  await writer.commit();
}

export function writeBank(file: string, questions: number): void {
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, '[\n');
  let first = true;
  for (const q of generateQuestions(questions, 7)) {
    fs.writeSync(out, `${first ? '' : ',\n'}${JSON.stringify(q)}`);
    first = false;
  }
  fs.writeSync(out, '\n]\n');
  fs.closeSync(out);
}

async function main() {
  const dir = arg('out', DEFAULT_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const roster = path.join(dir, ROSTER_FILE);
  const bank = path.join(dir, BANK_FILE);
  await writeRoster(roster, Number(arg('rows', '85000')), Number(arg('remark', '180')));
  writeBank(bank, Number(arg('questions', '150000')));
  const sheet = Object.entries(await inflatedSizes(roster)).find(([n]) => /worksheets\/sheet1\.xml$/.test(n));
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`${roster}: ${mb(fs.statSync(roster).size)}, sheet XML ${mb(sheet?.[1] ?? 0)}`);
  console.log(`${bank}: ${mb(fs.statSync(bank).size)}`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
