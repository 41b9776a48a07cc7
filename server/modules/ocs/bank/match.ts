/**
 * Finding the answer for a caller's question in the bank: exact by title hash first, then fuzzy
 * through the in-memory candidate index, scored by pg_trgm's similarity() and passed through the
 * near-miss guard (guard.ts). A row is used only when its answer can be expressed in the caller's
 * options; rows marked wrong are never used.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { formatAnswer, optionOverlap } from '../query/answer';
import type { FuzzyIndex } from './fuzzy-index';
import { benignDifference } from './guard';
import { normalizeTitle, titleHash, type OcsQuestionType } from './normalize';

export interface Lookup {
  title: string;
  type: OcsQuestionType;
  options: string[];
}

export interface BankMatch {
  id: number;
  question: string;
  answer: string;
  via: 'exact' | 'fuzzy';
  similarity: number;
}

type Row = {
  id: number;
  title: string;
  norm_title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
};

function typeFits(rowType: OcsQuestionType, callerType: OcsQuestionType): boolean {
  return callerType === 'any' || rowType === 'any' || rowType === callerType;
}

/** The best usable row: its answer expressible in the caller's options, most shared options first. */
function pick(rows: Array<Row & { sim?: number }>, q: Lookup): { row: Row; answer: string; sim: number } | null {
  let best: { row: Row; answer: string; sim: number; score: number } | null = null;
  for (const row of rows) {
    if (!typeFits(row.type, q.type)) continue;
    const overlap = optionOverlap(row.options, q.options);
    if (row.options.length > 0 && q.options.length > 0 && overlap < 0.5) continue;
    const answer = formatAnswer(row, q.type, q.options);
    if (answer === null) continue;
    const sim = row.sim ?? 1;
    const score = sim + 0.3 * overlap + (row.type === q.type ? 0.01 : 0);
    if (!best || score > best.score) best = { row, answer, sim, score };
  }
  return best && { row: best.row, answer: best.answer, sim: best.sim };
}

export async function findInBank(
  db: Kysely<DB>,
  index: FuzzyIndex,
  q: Lookup,
  threshold: number,
): Promise<BankMatch | null> {
  const norm = normalizeTitle(q.title);
  if (!norm) return null;
  const exact = await db
    .selectFrom('ocs_questions')
    .select(['id', 'title', 'norm_title', 'type', 'options', 'answer'])
    .where('title_hash', '=', titleHash(norm))
    .where('status', '<>', 'wrong')
    .limit(50)
    .execute();
  const hit = pick(exact as Row[], q);
  if (hit) return { id: Number(hit.row.id), question: hit.row.title, answer: hit.answer, via: 'exact', similarity: 1 };

  // The guard runs on the in-memory titles first: most near misses never reach the database.
  const ids = index
    .candidates(norm)
    .filter((id) => {
      const t = index.title(id);
      return t !== undefined && benignDifference(norm, t);
    })
    .slice(0, 4);
  if (ids.length === 0) return null;
  const scored = await db
    .selectFrom('ocs_questions')
    .select([
      'id',
      'title',
      'norm_title',
      'type',
      'options',
      'answer',
      sql<number>`similarity(norm_title, ${norm})`.as('sim'),
    ])
    .where('id', 'in', ids)
    .where('status', '<>', 'wrong')
    .execute();
  const usable = (scored as Array<Row & { sim: number }>).filter(
    (r) => Number(r.sim) >= threshold && benignDifference(norm, r.norm_title),
  );
  const fuzzy = pick(
    usable.map((r) => ({ ...r, sim: Number(r.sim) })),
    q,
  );
  if (!fuzzy) return null;
  return {
    id: Number(fuzzy.row.id),
    question: fuzzy.row.title,
    answer: fuzzy.answer,
    via: 'fuzzy',
    similarity: fuzzy.sim,
  };
}
