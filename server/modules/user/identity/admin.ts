/**
 * What administrators see and change of a user's sign-in: the second factor (reset), the local password
 * (turned off for SSO-only users, while a linked identity remains) and the linked identities. Every
 * change is audited in the same transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { AdminLinkIdentityBody, AdminUserSecurity } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { conflict, notFound } from '../../../errors';
import { recordAudit, type Actor } from '../../audit';
import { getUser } from '../admin';
import { hasUsablePassword, identitiesOf, linkIdentity, unlinkIdentity } from './accounts';
import { withAuthChange } from '../auth-cache';
import * as twoFactor from './two-factor';

export async function adminSecurity(
  db: Kysely<DB>,
  userId: number,
  requireTwoFactor: readonly string[],
): Promise<AdminUserSecurity> {
  const user = await db
    .selectFrom('users as u')
    .leftJoin('user_two_factor as tf', 'tf.user_id', 'u.id')
    .leftJoin('user_emails as e', 'e.user_id', 'u.id')
    .select(['u.roles', 'u.password_hash', 'u.password_login', 'tf.enabled_at', 'e.email'])
    .where('u.id', '=', userId)
    .where('u.status', '!=', 'deleted')
    .executeTakeFirst();
  if (!user) throw notFound('用户不存在');
  const [codes, identities] = await Promise.all([
    db
      .selectFrom('user_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow(),
    identitiesOf(db, userId),
  ]);
  const enabled = !!user.enabled_at;
  return {
    twoFactorEnabled: enabled,
    twoFactorEnabledAt: user.enabled_at?.toISOString() ?? null,
    recoveryCodesLeft: enabled ? Number(codes.n) : 0,
    twoFactorRequired: requireTwoFactor.some((r) => user.roles.includes(r)),
    passwordLogin: user.password_login,
    hasPassword: hasUsablePassword(user.password_hash),
    email: user.email ?? null,
    identities,
  };
}

/** The second factor goes and every session of the user ends; a required one is set up at the next sign-in. */
export async function adminResetTwoFactor(db: Kysely<DB>, actor: Actor, userId: number): Promise<void> {
  await withAuthChange(db, { userId }, async (trx) => {
    const target = await getUser(trx, userId);
    const removed = await twoFactor.removeSecondFactor(trx, userId);
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    await recordAudit(trx, actor, {
      action: 'user.reset_2fa',
      targetType: 'user',
      targetId: userId,
      targetName: target.username,
      before: { twoFactor: removed },
      after: { twoFactor: false, endedSessions: Number(ended.numDeletedRows) },
    });
  });
}

export async function adminSetPasswordLogin(
  db: Kysely<DB>,
  actor: Actor,
  userId: number,
  enabled: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await getUser(trx, userId);
    const row = await trx
      .selectFrom('users')
      .select('password_login')
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.password_login === enabled) return;
    if (!enabled && (await identitiesOf(trx, userId)).length === 0) {
      throw conflict('该用户没有关联统一身份，停用密码登录后将无法登录');
    }
    await trx
      .updateTable('users')
      .set({ password_login: enabled, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
    // Pending second steps of a password sign-in go with it.
    if (!enabled)
      await trx
        .deleteFrom('login_challenges')
        .where('user_id', '=', userId)
        .where('sso_provider', 'is', null)
        .execute();
    await recordAudit(trx, actor, {
      action: 'user.password_login',
      targetType: 'user',
      targetId: userId,
      targetName: target.username,
      before: { passwordLogin: row.password_login },
      after: { passwordLogin: enabled },
    });
  });
}

export async function adminLinkIdentity(
  db: Kysely<DB>,
  actor: Actor,
  userId: number,
  input: AdminLinkIdentityBody,
  casCaseSensitive: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await getUser(trx, userId);
    await linkIdentity(trx, userId, {
      provider: input.provider,
      subject: input.subject,
      caseInsensitive: input.provider === 'cas' && !casCaseSensitive,
      displayName: null,
      email: null,
      attributes: {},
    });
    await recordAudit(trx, actor, {
      action: 'user.link_identity',
      targetType: 'user',
      targetId: userId,
      targetName: target.username,
      after: { provider: input.provider, subject: input.subject },
    });
  });
}

export async function adminUnlinkIdentity(
  db: Kysely<DB>,
  actor: Actor,
  userId: number,
  identityId: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await getUser(trx, userId);
    const removed = await unlinkIdentity(trx, userId, identityId);
    await recordAudit(trx, actor, {
      action: 'user.unlink_identity',
      targetType: 'user',
      targetId: userId,
      targetName: target.username,
      before: { provider: removed.provider, subject: removed.subject },
    });
  });
}
