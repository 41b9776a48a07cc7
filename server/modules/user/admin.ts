/**
 * Administrator user management. Every mutation runs in a transaction that first takes one advisory
 * lock, so concurrent admin actions (two admins demoting each other, on any instance) are serialised
 * and the last-admin rule cannot be raced. Every mutation writes an audit row in the same transaction.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { AdminUser, AdminUserListQuery, AdminUpdateUserBody, Role, UserStatus } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { generatePassword, hashPassword } from '../../lib/password';
import { diff, recordAudit, type Actor } from '../audit';
import { createUser } from './service';
import { clearLoginFailures, LOGIN_WINDOW_MINUTES } from './throttle';
import { withAuthChange } from './auth-cache';
import { revokeAllTokens } from './tokens';
import { escapeLike } from '../../lib/sql';
import { lockFor } from '../../db/locks';

type ListQuery = z.output<typeof AdminUserListQuery>;

function adminUserQuery(db: Kysely<DB> | Transaction<DB>) {
  return db
    .selectFrom('users as u')
    .where('u.status', '!=', 'deleted')
    .select([
      'u.id',
      'u.username',
      'u.nickname',
      'u.avatar',
      'u.roles',
      'u.status',
      'u.created_at',
      'u.last_login_at',
      (eb) =>
        eb
          .selectFrom('api_tokens as t')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('t.user_id', '=', 'u.id')
          .where('t.revoked_at', 'is', null)
          .where((e) => e.or([e('t.expires_at', 'is', null), e('t.expires_at', '>', sql<Date>`now()`)]))
          .as('active_tokens'),
      sql<number>`(select count(*)::int from login_failures f
        where f.username = lower(u.username)
          and f.at > now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES}))`.as('recent_login_failures'),
    ]);
}

type AdminRow = Awaited<ReturnType<ReturnType<typeof adminUserQuery>['executeTakeFirstOrThrow']>>;

function toAdminUser(r: AdminRow): AdminUser {
  return {
    uid: r.id,
    username: r.username,
    nickname: r.nickname,
    avatar: r.avatar,
    roles: r.roles as Role[],
    status: r.status as UserStatus,
    createdAt: r.created_at.toISOString(),
    lastLoginAt: r.last_login_at?.toISOString() ?? null,
    activeTokens: Number(r.active_tokens ?? 0),
    recentLoginFailures: Number(r.recent_login_failures ?? 0),
  };
}

export async function listUsers(db: Kysely<DB>, q: ListQuery): Promise<{ rows: AdminUser[]; total: number }> {
  let base = db.selectFrom('users as u').where('u.status', '!=', 'deleted');
  let query = adminUserQuery(db);
  const apply = <T extends typeof base | typeof query>(b: T): T => {
    let x = b as typeof base;
    if (q.keyword) {
      const pattern = `%${escapeLike(q.keyword)}%`;
      x = x.where((eb) => eb.or([eb('u.username', 'ilike', pattern), eb('u.nickname', 'ilike', pattern)]));
    }
    if (q.role) x = x.where(sql<boolean>`${q.role} = any(u.roles)`);
    if (q.status) x = x.where('u.status', '=', q.status);
    return x as T;
  };
  base = apply(base);
  query = apply(query);
  const column = q.sortBy === 'lastLoginAt' ? 'u.last_login_at' : 'u.created_at';
  const direction = q.order === 'ascend' ? sql`asc nulls first` : sql`desc nulls last`;
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    query
      .orderBy(sql`${sql.ref(column)} ${direction}`)
      .orderBy('u.id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  return { rows: rows.map(toAdminUser), total: Number(total) };
}

export async function getUser(db: Kysely<DB> | Transaction<DB>, id: number): Promise<AdminUser> {
  const row = await adminUserQuery(db).where('u.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('用户不存在');
  return toAdminUser(row);
}

async function lockAdministration(trx: Transaction<DB>): Promise<void> {
  await lockFor(trx, 'user-admin');
}

async function activeAdminCount(trx: Transaction<DB>): Promise<number> {
  const { n } = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'active')
    .where(sql<boolean>`'admin' = any(roles)`)
    .executeTakeFirstOrThrow();
  return Number(n);
}

const isActiveAdmin = (u: { status: string; roles: string[] }) => u.status === 'active' && u.roles.includes('admin');

export async function adminCreateUser(
  db: Kysely<DB>,
  actor: Actor,
  input: { username: string; password?: string | null; generatePassword: boolean; nickname?: string; roles: Role[] },
): Promise<AdminUser & { generatedPassword?: string }> {
  const generated = input.generatePassword ? generatePassword() : undefined;
  const password = generated ?? input.password!;
  const roles = [...new Set(input.roles)];
  return db.transaction().execute(async (trx) => {
    const user = await createUser(trx, { username: input.username, password, nickname: input.nickname, roles });
    await recordAudit(trx, actor, {
      action: 'user.create',
      targetType: 'user',
      targetId: user.id,
      targetName: user.username,
      after: { username: user.username, nickname: user.nickname, roles },
    });
    return { ...(await getUser(trx, user.id)), ...(generated ? { generatedPassword: generated } : {}) };
  });
}

export async function adminUpdateUser(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  patch: AdminUpdateUserBody,
): Promise<AdminUser & { endedSessions: number }> {
  // Roles and status travel with a verified token or session: cached checks of this user's go.
  return withAuthChange(db, { userId: id }, async (trx) => {
    await lockAdministration(trx);
    const before = await getUser(trx, id);
    const roles = patch.roles ? [...new Set(patch.roles)] : before.roles;
    const status = patch.status ?? before.status;
    if (actor.id === id) {
      if (!roles.includes('admin')) throw forbidden('不能移除自己的管理员角色');
      if (status !== 'active') throw forbidden('不能停用自己的账号');
    }
    if (isActiveAdmin(before) && !isActiveAdmin({ status, roles }) && (await activeAdminCount(trx)) <= 1) {
      throw conflict('这是最后一个有效的管理员，不能移除其管理员角色或停用');
    }
    const after = { nickname: patch.nickname === undefined ? before.nickname : patch.nickname || null, roles, status };
    await trx
      .updateTable('users')
      .set({ ...after, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    let endedSessions = 0;
    if (status === 'disabled' && before.status !== 'disabled') {
      const res = await trx.deleteFrom('sessions').where('user_id', '=', id).executeTakeFirst();
      endedSessions = Number(res.numDeletedRows);
    }
    const changes = diff(before as unknown as Record<string, unknown>, after);
    if (Object.keys(changes.after).length > 0) {
      await recordAudit(trx, actor, {
        action: 'user.update',
        targetType: 'user',
        targetId: id,
        targetName: before.username,
        before: changes.before,
        after: { ...changes.after, ...(endedSessions ? { endedSessions } : {}) },
      });
    }
    return { ...(await getUser(trx, id)), endedSessions };
  });
}

export async function adminResetPassword(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  input: { password?: string | null; generatePassword: boolean; revokeTokens?: boolean },
): Promise<{ endedSessions: number; revokedTokens: number; generatedPassword?: string }> {
  const generated = input.generatePassword ? generatePassword() : undefined;
  const hash = await hashPassword(generated ?? input.password!);
  return withAuthChange(db, { userId: id }, async (trx) => {
    const target = await getUser(trx, id);
    await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: sql`now()` })
      .where('id', '=', id)
      .execute();
    const res = await trx.deleteFrom('sessions').where('user_id', '=', id).executeTakeFirst();
    const endedSessions = Number(res.numDeletedRows);
    const revokedTokens = input.revokeTokens === false ? 0 : await revokeAllTokens(trx, id);
    await recordAudit(trx, actor, {
      action: 'user.reset_password',
      targetType: 'user',
      targetId: id,
      targetName: target.username,
      after: { passwordReset: true, generated: Boolean(generated), endedSessions, revokedTokens },
    });
    return { endedSessions, revokedTokens, ...(generated ? { generatedPassword: generated } : {}) };
  });
}

/**
 * Deletes a user: sessions, tokens, avatar, notifications with their settings and forwarding, shell preferences go; the row stays as an anonymised tombstone so that
 * ledgers and message history keep pointing at it without naming anyone.
 */
export async function adminDeleteUser(db: Kysely<DB>, actor: Actor, id: number, confirm: string): Promise<void> {
  await withAuthChange(db, { userId: id }, async (trx) => {
    await lockAdministration(trx);
    const target = await getUser(trx, id);
    if (confirm !== target.username) {
      throw badRequest('请输入要删除的用户名以确认', { confirm: ['输入的用户名不一致'] });
    }
    if (actor.id === id) throw forbidden('不能删除自己的账号');
    if (isActiveAdmin(target) && (await activeAdminCount(trx)) <= 1) {
      throw conflict('这是最后一个有效的管理员，不能删除');
    }
    await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
    await trx.deleteFrom('api_tokens').where('user_id', '=', id).execute();
    await trx.deleteFrom('avatars').where('user_id', '=', id).execute();
    await trx.deleteFrom('notifications').where('user_id', '=', id).execute();
    await trx.deleteFrom('notification_preferences').where('user_id', '=', id).execute();
    await trx.deleteFrom('notification_forwarding').where('user_id', '=', id).execute();
    await trx.deleteFrom('user_preferences').where('user_id', '=', id).execute();
    await trx
      .updateTable('users')
      .set({
        username: `deleted_${id}`,
        nickname: null,
        avatar: null,
        password_hash: '!',
        roles: [],
        status: 'deleted',
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, actor, {
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      targetName: target.username,
      before: { username: target.username, nickname: target.nickname, roles: target.roles, status: target.status },
    });
  });
}

/** Revokes every active personal token of a user (scripts stop at once, on every instance); audited. */
export async function adminRevokeTokens(db: Kysely<DB>, actor: Actor, id: number): Promise<number> {
  return withAuthChange(db, { userId: id }, async (trx) => {
    const target = await getUser(trx, id);
    const n = await revokeAllTokens(trx, id);
    await recordAudit(trx, actor, {
      action: 'user.revoke_tokens',
      targetType: 'user',
      targetId: id,
      targetName: target.username,
      after: { revokedTokens: n },
    });
    return n;
  });
}

/** Clears the login throttle's failures of an account (./throttle.ts); audited. */
export async function adminUnlockLogin(db: Kysely<DB>, actor: Actor, id: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const target = await getUser(trx, id);
    const cleared = await clearLoginFailures(trx, target.username);
    await recordAudit(trx, actor, {
      action: 'user.unlock_login',
      targetType: 'user',
      targetId: id,
      targetName: target.username,
      after: { clearedFailures: cleared },
    });
    return cleared;
  });
}

/**
 * An administrator gives themself the njit role (the student lookup), in one step the audit log
 * records as user.grant_self_njit; nothing changes, and nothing is recorded, if they have it already.
 * Their own session carries the new role at its next request, on every instance.
 */
export async function adminGrantSelfNjit(db: Kysely<DB>, actor: Actor): Promise<{ roles: Role[]; granted: boolean }> {
  return withAuthChange(db, { userId: actor.id }, async (trx) => {
    await lockAdministration(trx);
    const before = await getUser(trx, actor.id);
    if (!before.roles.includes('admin')) throw forbidden();
    if (before.roles.includes('njit')) return { roles: before.roles, granted: false };
    const roles: Role[] = [...before.roles, 'njit'];
    await trx
      .updateTable('users')
      .set({ roles, updated_at: sql`now()` })
      .where('id', '=', actor.id)
      .execute();
    await recordAudit(trx, actor, {
      action: 'user.grant_self_njit',
      targetType: 'user',
      targetId: actor.id,
      targetName: before.username,
      before: { roles: before.roles },
      after: { roles },
    });
    return { roles, granted: true };
  });
}
