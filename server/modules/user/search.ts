/**
 * The header's search in the user module: my tokens (any user) and users (administrators), a few
 * hits each. Both tables are small per caller, so a plain ILIKE is enough.
 */
import type { Kysely } from 'kysely';
import { SEARCH_LIMIT, type SearchHit } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { escapeLike } from '../../lib/sql';

const ROLE_LABELS: Record<string, string> = { admin: '管理员', njit: 'NJIT' };

/** Users whose username starts with `q` or whose nickname contains it; deleted users are not found. */
export async function searchUsers(db: Kysely<DB>, q: string): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'roles', 'status'])
    .where('status', '!=', 'deleted')
    .where((eb) => eb.or([eb('username', 'ilike', `${escapeLike(q)}%`), eb('nickname', 'ilike', `%${escapeLike(q)}%`)]))
    .orderBy('username')
    .limit(SEARCH_LIMIT)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.nickname ? `${r.nickname}（${r.username}）` : r.username,
    detail:
      [...r.roles.map((role) => ROLE_LABELS[role] ?? role), r.status === 'disabled' ? '已禁用' : null]
        .filter(Boolean)
        .join(' · ') || null,
  }));
}

/** The caller's own tokens whose name contains `q` or whose visible prefix starts with it. */
export async function searchTokens(db: Kysely<DB>, userId: number, q: string): Promise<SearchHit[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'prefix', 'revoked_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('name', 'ilike', `%${escapeLike(q)}%`), eb('prefix', 'ilike', `${escapeLike(q)}%`)]))
    .orderBy('created_at', 'desc')
    .limit(SEARCH_LIMIT)
    .execute();
  const now = Date.now();
  return rows.map((r) => ({
    id: r.id,
    title: r.name,
    detail: `${r.prefix}… · ${
      r.revoked_at ? '已撤销' : r.expires_at && r.expires_at.getTime() <= now ? '已过期' : '有效'
    }`,
  }));
}
