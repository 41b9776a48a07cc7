/**
 * Writing questions into the bank: upsertQuestions stores prepared questions idempotently, keyed by
 * normalized title, type and option set, so the same question written again updates its row.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import type { PreparedQuestion } from './question';

export interface UpsertResult {
  inserted: number;
  updated: number;
  rows: Array<{ id: number; norm_title: string }>;
}

/** Inserts or updates (same normalized title, type and options) in one statement per chunk. */
export async function upsertQuestions(
  db: Kysely<DB>,
  questions: PreparedQuestion[],
  source: 'import' | 'manual' | 'ai',
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
