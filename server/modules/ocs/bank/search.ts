/**
 * The header's search in the question bank (administrators): the question with that id, and questions
 * whose matching key starts with the words' key (normalizeTitle: the normal form an import stores), in
 * the key's byte order. The prefix is a range on ocs_questions_norm_title_prefix_idx (migration 0034),
 * read in that index's order and stopped at the few needed: cheap at a million rows, where a substring
 * search would read them all (the bank page's own search finds words anywhere in a title).
 */
import { sql, type Kysely } from 'kysely';
import { OCS_TYPE_LABELS, SEARCH_LIMIT, type OcsType, type SearchHit } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { escapeLike, prefixUpperBound } from '../../../lib/sql';
import { normalizeTitle } from './normalize';

interface Hit {
  id: number;
  title: string;
  type: string;
  status: string;
}

export async function searchBank(db: Kysely<DB>, q: string): Promise<SearchHit[]> {
  const key = normalizeTitle(q);
  const bound = key ? prefixUpperBound(key) : null;
  const id = /^\d{1,9}$/.test(q) ? Number(q) : 0;
  const byId = sql<Hit>`select id, title, type, status, 0 as rank from ocs_questions where id = ${id}`;
  const byKey =
    bound === null
      ? sql<Hit>`select id, title, type, status, 1 as rank from ocs_questions where false`
      : sql<Hit>`(select id, title, type, status, 1 as rank from ocs_questions
          where norm_title ~>=~ ${key} and norm_title ~<~ ${bound} and norm_title like ${`${escapeLike(key)}%`}
            and id <> ${id}
          order by norm_title using ~<~
          limit ${SEARCH_LIMIT})`;
  const { rows } = await sql<Hit>`select id, title, type, status from (${byId} union all ${byKey}) h
    order by rank limit ${SEARCH_LIMIT}`.execute(db);
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    detail: [`#${r.id}`, OCS_TYPE_LABELS[r.type as OcsType] ?? r.type, r.status === 'wrong' ? '已标错' : null]
      .filter(Boolean)
      .join(' · '),
  }));
}
