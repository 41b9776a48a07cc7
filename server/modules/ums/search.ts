/**
 * The header's search in UMS: the caller's own messages whose title contains the words, newest first.
 * The walk goes down ums_messages_user_idx (user, id) and stops at the few it needs.
 */
import type { Kysely } from 'kysely';
import { MESSAGE_STATUS_LABELS, SEARCH_LIMIT, type MessageStatus, type SearchHit } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { containsOperator, escapeLike } from '../../lib/sql';

export async function searchMessages(db: Kysely<DB>, userId: number, q: string): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('ums_messages')
    .select(['id', 'title', 'status', 'created_at'])
    .where('user_id', '=', userId)
    .where('title', containsOperator(q), `%${escapeLike(q)}%`)
    .orderBy('id', 'desc')
    .limit(SEARCH_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    detail: MESSAGE_STATUS_LABELS[r.status as MessageStatus] ?? r.status,
  }));
}
