/**
 * Personal API tokens: created once and shown once, stored as a SHA-256 hash, with scopes, optional
 * expiry and revocation. verifyToken is the one token-auth path every token-accepting API uses.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  MAX_ACTIVE_TOKENS,
  type CreateTokenBody,
  type TokenInfo,
  type TokenScope,
  type TokenStatus,
} from '../../../src/contract';
import { paginate } from '../../db/paging';
import type { DB } from '../../db/schema';
import type { TokenAuth } from '../../plugins/auth';
import { conflict, forbidden, notFound, unauthorized } from '../../errors';
import { randomSecret, sha256 } from '../../lib/tokens';
import { authCacheOf } from './auth-cache';

const TOKEN_PREFIX = 'pt_';
const VISIBLE_CHARS = 11; // "pt_" + 8 characters
const LAST_USED_EVERY_MS = 60_000;

interface TokenRow {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
}

function statusOf(t: TokenRow, now = Date.now()): TokenStatus {
  if (t.revoked_at) return 'revoked';
  if (t.expires_at && t.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

export function toTokenInfo(t: TokenRow): TokenInfo {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scopes: t.scopes as TokenScope[],
    createdAt: t.created_at.toISOString(),
    expiresAt: t.expires_at?.toISOString() ?? null,
    lastUsedAt: t.last_used_at?.toISOString() ?? null,
    lastUsedIp: t.last_used_ip,
    revokedAt: t.revoked_at?.toISOString() ?? null,
    status: statusOf(t),
  };
}

const TOKEN_COLUMNS = [
  'id',
  'name',
  'prefix',
  'scopes',
  'created_at',
  'expires_at',
  'revoked_at',
  'last_used_at',
  'last_used_ip',
] as const;

export async function createToken(
  db: Kysely<DB>,
  userId: number,
  input: CreateTokenBody,
): Promise<TokenInfo & { token: string }> {
  const token = TOKEN_PREFIX + randomSecret(24);
  const scopes = [...new Set(input.scopes)];
  try {
    return await db.transaction().execute(async (trx) => {
      // Serialises this user's token creations so the limit holds under concurrency.
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
      const { n } = await trx
        .selectFrom('api_tokens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_ACTIVE_TOKENS) {
        throw conflict(`最多只能有 ${MAX_ACTIVE_TOKENS} 个有效令牌，请先撤销不用的令牌`);
      }
      const row = await trx
        .insertInto('api_tokens')
        .values({
          user_id: userId,
          name: input.name,
          prefix: token.slice(0, VISIBLE_CHARS),
          token_hash: sha256(token),
          scopes,
          expires_at: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null,
        })
        .returning(TOKEN_COLUMNS)
        .executeTakeFirstOrThrow();
      return { ...toTokenInfo(row), token };
    });
  } catch (err) {
    if ((err as { code?: string }).code === '23505') {
      throw conflict('已存在同名的令牌，请换一个名称', { name: ['已存在同名的令牌'] });
    }
    throw err;
  }
}

export async function listTokens(
  db: Kysely<DB>,
  userId: number,
  q: { current: number; pageSize: number; status?: TokenStatus },
): Promise<{ rows: TokenInfo[]; total: number }> {
  let base = db.selectFrom('api_tokens').where('user_id', '=', userId);
  if (q.status === 'revoked') base = base.where('revoked_at', 'is not', null);
  if (q.status === 'expired') base = base.where('revoked_at', 'is', null).where('expires_at', '<=', sql<Date>`now()`);
  if (q.status === 'active') {
    base = base
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]));
  }
  const { rows, total } = await paginate(base, q, (b) =>
    b.select(TOKEN_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { rows: rows.map((r) => toTokenInfo(r)), total };
}

export async function revokeToken(db: Kysely<DB>, userId: number, tokenId: number): Promise<TokenInfo> {
  const cache = authCacheOf(db);
  const row = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('api_tokens')
      .set({ revoked_at: sql`coalesce(revoked_at, now())` })
      .where('id', '=', tokenId)
      .where('user_id', '=', userId)
      .returning(TOKEN_COLUMNS)
      .executeTakeFirst();
    if (r) await cache.announce(trx, { tokenId });
    return r;
  });
  if (!row) throw notFound('令牌不存在');
  cache.forget({ tokenId });
  return toTokenInfo(row);
}

/**
 * Revokes every active token of a user inside the caller's transaction (password change, admin reset,
 * admin action); the caller announces the change to the token caches. Returns how many.
 */
export async function revokeAllTokens(trx: Transaction<DB>, userId: number): Promise<number> {
  const res = await trx
    .updateTable('api_tokens')
    .set({ revoked_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/**
 * 401 for a missing, unknown, revoked or expired token (or a disabled owner), 403 for a missing scope.
 * A token that passed is remembered for a short while (token-cache.ts), so a busy token costs no
 * database round trip; revoking it, or disabling or changing its owner, drops it at once.
 * Updates last-used at most once a minute per token, so a busy token does not write per request.
 */
export async function verifyToken(
  db: Kysely<DB>,
  token: string | undefined,
  scope: TokenScope | undefined,
  ip: string,
): Promise<TokenAuth> {
  if (!token) throw unauthorized('缺少访问令牌');
  if (token.length > 200 || !token.startsWith(TOKEN_PREFIX)) throw unauthorized('访问令牌无效');
  const hash = sha256(token);
  const cache = authCacheOf(db);
  const now = Date.now();
  let entry = cache.getToken(hash);
  if (entry && entry.expiresAt !== null && entry.expiresAt <= now) {
    cache.dropToken(hash);
    throw unauthorized('访问令牌已过期');
  }
  if (!entry) {
    const generation = cache.generation;
    const row = await db
      .selectFrom('api_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select([
        't.id',
        't.user_id',
        't.scopes',
        't.expires_at',
        't.revoked_at',
        't.last_used_at',
        'u.username',
        'u.roles',
        'u.status',
      ])
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
    if (!row) throw unauthorized('访问令牌无效');
    if (row.revoked_at) throw unauthorized('访问令牌已撤销');
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw unauthorized('访问令牌已过期');
    if (row.status !== 'active') throw unauthorized('令牌所属账号已停用');
    entry = cache.putToken(
      hash,
      {
        auth: {
          tokenId: row.id,
          userId: row.user_id,
          username: row.username,
          roles: row.roles,
          scopes: row.scopes as TokenScope[],
        },
        expiresAt: row.expires_at?.getTime() ?? null,
        lastUsedAt: row.last_used_at?.getTime() ?? null,
      },
      generation,
    );
  }
  if (scope && !entry.auth.scopes.includes(scope)) throw forbidden(`该令牌没有 ${scope} 权限`);
  if (entry.lastUsedAt === null || now - entry.lastUsedAt > LAST_USED_EVERY_MS) {
    entry.lastUsedAt = now;
    await db
      .updateTable('api_tokens')
      .set({ last_used_at: sql`now()`, last_used_ip: ip })
      .where('id', '=', entry.auth.tokenId)
      .execute();
  }
  return { ...entry.auth };
}
