/**
 * The header's search in OCS: the caller's own queries whose title contains the words, newest first
 * (down ocs_queries_user_idx, user and time).
 */
import type { Kysely } from 'kysely';
import { OCS_OUTCOME_LABELS, SEARCH_LIMIT, type SearchHit } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { containsOperator, escapeLike } from '../../../lib/sql';
import { answerFromLog } from './log';

export async function searchQueries(db: Kysely<DB>, userId: number, q: string): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('ocs_queries')
    .select(['id', 'title', 'outcome', 'answer'])
    .where('user_id', '=', userId)
    .where('title', containsOperator(q), `%${escapeLike(q)}%`)
    .orderBy('created_at', 'desc')
    .limit(SEARCH_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    detail: [OCS_OUTCOME_LABELS[r.outcome], r.answer === null ? null : answerFromLog(r.answer).join('；')]
      .filter(Boolean)
      .join(' · '),
  }));
}
