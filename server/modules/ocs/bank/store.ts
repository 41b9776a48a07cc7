/**
 * Writing questions into the bank: upsertQuestions stores prepared questions idempotently, keyed by
 * normalized title, type and option set, so the same question written again updates its row;
 * storeMachineAnswer keeps an answer an AI or an upstream bank gave, unless people answered it first.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, OcsQuestionSource, OcsQuestionType } from '../../../db/schema';
import type { FuzzyIndex } from './fuzzy-index';
import { prepareQuestion, type PreparedQuestion } from './question';

export interface UpsertResult {
  inserted: number;
  updated: number;
  rows: Array<{ id: number; norm_title: string }>;
}

/** Inserts or updates (same normalized title, type and options) in one statement per chunk. */
export async function upsertQuestions(
  db: Kysely<DB> | Transaction<DB>,
  questions: PreparedQuestion[],
  source: OcsQuestionSource,
  status: 'verified' | 'unverified' = 'verified',
): Promise<UpsertResult> {
  const out: UpsertResult = { inserted: 0, updated: 0, rows: [] };
  // Within one statement a key may appear once: the last occurrence wins, as a later row would.
  const unique = new Map<string, PreparedQuestion>();
  for (const q of questions) unique.set(`${q.title_hash}|${q.type}|${q.options_hash}`, q);
  const list = [...unique.values()];
  for (let i = 0; i < list.length; i += 2000) {
    const chunk = list.slice(i, i + 2000);
    const rows = await db
      .insertInto('ocs_questions')
      .values(
        chunk.map((q) => ({
          title_hash: q.title_hash,
          options_hash: q.options_hash,
          norm_title: q.norm_title,
          title: q.title,
          type: q.type,
          options: JSON.stringify(q.options),
          answer: JSON.stringify(q.answer),
          source,
          status,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['title_hash', 'type', 'options_hash']).doUpdateSet((eb) => ({
          title: eb.ref('excluded.title'),
          norm_title: eb.ref('excluded.norm_title'),
          options: eb.ref('excluded.options'),
          answer: eb.ref('excluded.answer'),
          source: eb.ref('excluded.source'),
          status: eb.ref('excluded.status'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .returning(['id', 'norm_title', sql<boolean>`(xmax = 0)`.as('inserted')])
      .execute();
    for (const r of rows) {
      if (r.inserted) out.inserted++;
      else out.updated++;
      out.rows.push({ id: Number(r.id), norm_title: r.norm_title });
    }
  }
  return out;
}

const isMachine = (source: string) => source === 'ai' || source.startsWith('upstream:');

/**
 * Keeps a machine's answer (source `ai` or `upstream:<name>`, unverified) so the next identical question
 * is a bank hit. Never over an answer people gave (imported, typed, corrected) or verified, nor again
 * over the very answer an administrator marked wrong. Returns the row's id when written, and the
 * answer as the bank stores it (null when it cannot be stored as a question, e.g. not in the options).
 */
export async function storeMachineAnswer(
  db: Kysely<DB>,
  index: FuzzyIndex,
  q: { title: string; type: OcsQuestionType; options: string[] },
  answer: string[],
  source: 'ai' | `upstream:${string}`,
): Promise<{ id: number | null; prepared: PreparedQuestion | null }> {
  const p = prepareQuestion({ title: q.title, type: q.type, options: q.options, answer });
  if ('error' in p) return { id: null, prepared: null };
  const row = await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('ocs_questions')
      .select(['source', 'status', 'answer'])
      .where('title_hash', '=', p.title_hash)
      .where('type', '=', p.type)
      .where('options_hash', '=', p.options_hash)
      .forUpdate()
      .executeTakeFirst();
    if (existing && (!isMachine(existing.source) || existing.status === 'verified')) return null;
    if (existing?.status === 'wrong' && JSON.stringify(existing.answer) === JSON.stringify(p.answer)) return null;
    return (await upsertQuestions(trx, [p], source, 'unverified')).rows[0] ?? null;
  });
  if (row) index.add(row.id, row.norm_title);
  return { id: row?.id ?? null, prepared: p };
}
