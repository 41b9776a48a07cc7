/**
 * The sample bank shipped with the portal (sample-bank.json beside this file): a few hundred
 * general-knowledge questions written for this project, so a fresh install can answer something before
 * a real bank is imported. It goes through the import's own path (parseBankRows, prepareQuestion,
 * upsertQuestions as source import, verified), but questions already in the bank are skipped rather
 * than rewritten: importing it twice changes nothing, and an administrator's later edits or 错误 marks
 * on a sample question survive a second click.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { SampleBankImportResult } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { recordAudit, type Actor } from '../../audit';
import type { FuzzyIndex } from './fuzzy-index';
import { parseBankRows } from './import-parse';
import { prepareQuestion, type PreparedQuestion } from './question';
import { upsertQuestions } from './store';

export const SAMPLE_BANK_FILE = path.join(__dirname, 'sample-bank.json');

const identity = (q: { title_hash: string; type: string; options_hash: string }) =>
  `${q.title_hash}|${q.type}|${q.options_hash}`;

/** The sample file's questions, validated as an import validates them; a bad row is a bug of the file. */
export async function readSampleBank(file = SAMPLE_BANK_FILE): Promise<PreparedQuestion[]> {
  const parsed = parseBankRows(path.basename(file), await fs.readFile(file));
  return parsed.rows.map((r) => {
    const p = 'error' in r ? r : prepareQuestion(r.question);
    if ('error' in p) throw new Error(`sample bank row ${r.row}: ${p.error}`);
    return p;
  });
}

/** Identities (title, type, options) of these questions that the bank already holds. */
async function existing(db: Kysely<DB>, rows: PreparedQuestion[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const r = await sql<{ title_hash: string; type: string; options_hash: string }>`
    select k.th as title_hash, k.ty as type, k.oh as options_hash
    from unnest(${rows.map((q) => q.title_hash)}::text[], ${rows.map((q) => q.type)}::text[], ${rows.map((q) => q.options_hash)}::text[]) as k(th, ty, oh)
    where exists (select 1 from ocs_questions q where q.title_hash = k.th and q.type = k.ty and q.options_hash = k.oh)`.execute(
    db,
  );
  return new Set(r.rows.map(identity));
}

export async function importSampleBank(
  db: Kysely<DB>,
  index: FuzzyIndex,
  actor: Actor,
): Promise<SampleBankImportResult> {
  const rows = await readSampleBank();
  const known = await existing(db, rows);
  const fresh = rows.filter((q) => !known.has(identity(q)));
  const written = fresh.length > 0 ? await upsertQuestions(db, fresh, 'import', 'verified') : null;
  // Answerable (exact and fuzzy) at once, as an import's chunks are.
  for (const row of written?.rows ?? []) index.add(row.id, row.norm_title);
  const result = { total: rows.length, inserted: written?.inserted ?? 0, skipped: 0 };
  result.skipped = result.total - result.inserted;
  await recordAudit(db, actor, {
    action: 'ocs.bank.import-sample',
    targetType: 'ocs_bank',
    targetName: '示例题库',
    after: result,
  });
  return result;
}
