/**
 * The personal center: profile, nickname, avatar, password change and the user's own sessions.
 */
import { sql, type Kysely } from 'kysely';
import sharp from 'sharp';
import { AVATAR_SIZE, type Profile, type Role, type SessionInfo } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { withAuthChange } from './auth-cache';
import { revokeAllTokens } from './tokens';
import * as api from '@contract/api/user';
import { pathOf } from '@contract/endpoint';

const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);

export async function getProfile(db: Kysely<DB>, userId: number): Promise<Profile> {
  const u = await db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'avatar', 'roles', 'created_at', 'last_login_at'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!u) throw notFound('用户不存在');
  return {
    uid: u.id,
    username: u.username,
    nickname: u.nickname,
    avatar: u.avatar,
    roles: u.roles as Role[],
    createdAt: u.created_at.toISOString(),
    lastLoginAt: u.last_login_at?.toISOString() ?? null,
  };
}

export async function updateNickname(db: Kysely<DB>, userId: number, nickname: string): Promise<Profile> {
  // The nickname travels with a resolved session: cached sessions of the user go.
  await withAuthChange(db, { userId }, async (trx) => {
    await trx
      .updateTable('users')
      .set({ nickname: nickname || null, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
  });
  return getProfile(db, userId);
}

/**
 * Checks the upload by its content (not its name), re-encodes it as a WebP square of at most 256 px
 * and stores it. Anything that is not a whole PNG, JPEG or WebP is refused and the old avatar stays.
 */
export async function setAvatar(db: Kysely<DB>, userId: number, input: Buffer): Promise<string> {
  let format: string | undefined;
  try {
    format = (await sharp(input).metadata()).format;
  } catch {
    throw badRequest('无法识别的图片文件，请上传 PNG、JPEG 或 WebP 图片');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) {
    throw badRequest('只支持 PNG、JPEG 或 WebP 图片');
  }
  let output: Buffer;
  try {
    output = await sharp(input, { failOn: 'truncated', limitInputPixels: 40_000_000 })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw badRequest('图片已损坏或不完整，请换一张图片');
  }
  return withAuthChange(db, { userId }, async (trx) => {
    const row = await trx
      .insertInto('avatars')
      .values({ user_id: userId, content: output, mime: 'image/webp', version: 1 })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          content: output,
          mime: 'image/webp',
          version: sql`avatars.version + 1`,
          updated_at: sql`now()`,
        }),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    const url = `${pathOf(api.avatar, { id: userId })}?v=${row.version}`;
    await trx
      .updateTable('users')
      .set({ avatar: url, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
    return url;
  });
}

export async function getAvatar(db: Kysely<DB>, userId: number): Promise<{ content: Buffer; mime: string } | null> {
  const row = await db
    .selectFrom('avatars')
    .innerJoin('users', 'users.id', 'avatars.user_id')
    .select(['avatars.content', 'avatars.mime'])
    .where('avatars.user_id', '=', userId)
    .where('users.status', '!=', 'deleted')
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Changes the password and ends every other session of the user, and with `revokeTokens` revokes every
 * personal token too; returns how many sessions were ended and tokens revoked.
 */
export async function changePassword(
  db: Kysely<DB>,
  userId: number,
  currentSessionHash: string,
  oldPassword: string,
  newPassword: string,
  revokeTokens = false,
): Promise<{ endedSessions: number; revokedTokens: number }> {
  const u = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(oldPassword, u.password_hash))) {
    throw badRequest('当前密码不正确', { oldPassword: ['当前密码不正确'] });
  }
  if (oldPassword === newPassword) {
    throw badRequest('新密码不能与当前密码相同', { newPassword: ['新密码不能与当前密码相同'] });
  }
  const hash = await hashPassword(newPassword);
  return withAuthChange(db, { userId }, async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
    const res = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id_hash', '!=', currentSessionHash)
      .executeTakeFirst();
    const revokedTokens = revokeTokens ? await revokeAllTokens(trx, userId) : 0;
    return { endedSessions: Number(res.numDeletedRows), revokedTokens };
  });
}

export async function listSessions(db: Kysely<DB>, userId: number, currentSessionHash: string): Promise<SessionInfo[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'id_hash', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at', 'persistent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .orderBy('last_seen_at', 'desc')
    .execute();
  return rows.map((s) => ({
    id: s.id,
    userAgent: s.user_agent,
    ip: s.ip,
    createdAt: s.created_at.toISOString(),
    lastSeenAt: s.last_seen_at.toISOString(),
    expiresAt: new Date(s.expires_at).toISOString(),
    persistent: s.persistent,
    current: s.id_hash === currentSessionHash,
  }));
}

export async function endSession(
  db: Kysely<DB>,
  userId: number,
  sessionId: number,
  currentSessionHash: string,
): Promise<number> {
  const target = await db
    .selectFrom('sessions')
    .select('id_hash')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!target) throw notFound('会话不存在或已结束');
  if (target.id_hash === currentSessionHash) throw badRequest('不能在这里结束当前会话，请使用“退出登录”');
  const res = await withAuthChange(db, { sessionHash: target.id_hash }, (trx) =>
    trx.deleteFrom('sessions').where('id', '=', sessionId).executeTakeFirst(),
  );
  return Number(res.numDeletedRows);
}

export async function endOtherSessions(db: Kysely<DB>, userId: number, currentSessionHash: string): Promise<number> {
  const res = await withAuthChange(db, { userId }, (trx) =>
    trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id_hash', '!=', currentSessionHash)
      .executeTakeFirst(),
  );
  return Number(res.numDeletedRows);
}
