/**
 * Identities from CAS and OIDC and the accounts they sign in to: linking (one subject of a provider to
 * one account, one identity of each provider per account), accounts created for an identity
 * (SSO_AUTO_CREATE), roles granted by the identity's attributes (SSO_ROLE_MAP, added, never taken away),
 * and unlinking while a way to sign in remains.
 */
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { IdentityList, LinkedIdentity, Role, SsoProvider } from '../../../../src/contract';
import type { RoleRule } from '../../../config';
import type { DB } from '../../../db/schema';
import { conflict, HttpError, notFound } from '../../../errors';
import { sha256 } from '../../../lib/tokens';
import { recordAudit } from '../../audit';
import type { UserRow } from '../service';
import { withAuthChange } from '../auth-cache';

type Db = Kysely<DB> | Transaction<DB>;

/** What an identity server vouched for. */
export interface ExternalIdentity {
  provider: SsoProvider;
  subject: string;
  /**
   * The subject names the same person in any case (CAS usernames unless CAS_CASE_SENSITIVE): it matches
   * a linked subject that differs in case only. OIDC subjects are compared exactly, as the spec says.
   */
  caseInsensitive?: boolean;
  displayName: string | null;
  email: string | null;
  /** CAS attributes or OIDC claims, every value as a list of strings (for SSO_ROLE_MAP). */
  attributes: Record<string, string[]>;
}

/** errorCode of the refusals below; the SSO routes turn them into `sso_error` codes. */
export const IDENTITY_CONFLICT = 'IDENTITY_CONFLICT';
export const IDENTITY_TAKEN = 'IDENTITY_TAKEN';

/** A stored password that can match anything (accounts created by SSO store `!`). */
export const hasUsablePassword = (hash: string) => hash.startsWith('scrypt$');

/** The roles SSO_ROLE_MAP gives an identity: an attribute equal to (or, for lists, containing) the value. */
export function mappedRoles(identity: ExternalIdentity, rules: readonly RoleRule[]): Role[] {
  const roles = rules.filter((r) => (identity.attributes[r.attribute] ?? []).includes(r.value)).map((r) => r.role);
  return [...new Set(roles)];
}

export type LinkedUser = UserRow & { status: string };

/**
 * The identity's rows of user_identities (`column` is their subject): its provider's, with its subject —
 * in any case when the identity says so (index user_identities_provider_lower_subject_idx, 0028).
 */
function isIdentity(column: 'subject' | 'i.subject', identity: Pick<ExternalIdentity, 'subject' | 'caseInsensitive'>) {
  return identity.caseInsensitive
    ? sql<SqlBool>`lower(${sql.ref(column)}) = ${identity.subject.toLowerCase()}`
    : sql<SqlBool>`${sql.ref(column)} = ${identity.subject}`;
}

export async function linkedUser(db: Db, identity: ExternalIdentity): Promise<LinkedUser | null> {
  const row = await db
    .selectFrom('user_identities as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['u.id', 'u.username', 'u.nickname', 'u.avatar', 'u.roles', 'u.status'])
    .where('i.provider', '=', identity.provider)
    .where(isIdentity('i.subject', identity))
    .where('u.status', '!=', 'deleted')
    .orderBy('i.id') // two spellings linked before matching ignored case: the first linked one
    .executeTakeFirst();
  return row ?? null;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

/** Links the identity to the account; 409 when it belongs to another account or the account has one of that provider. */
export async function linkIdentity(db: Db, userId: number, identity: ExternalIdentity): Promise<void> {
  const existing = await db
    .selectFrom('user_identities')
    .select(['user_id'])
    .where('provider', '=', identity.provider)
    .where(isIdentity('subject', identity))
    .orderBy('id')
    .executeTakeFirst();
  if (existing && existing.user_id !== userId) {
    throw new HttpError(409, IDENTITY_CONFLICT, '这个统一身份已关联到其他账号');
  }
  if (existing) return touchIdentity(db, userId, identity, false);
  const other = await db
    .selectFrom('user_identities')
    .select('id')
    .where('user_id', '=', userId)
    .where('provider', '=', identity.provider)
    .executeTakeFirst();
  if (other) throw new HttpError(409, IDENTITY_TAKEN, '该账号已关联了另一个同类统一身份，请先解除原有关联');
  try {
    await db
      .insertInto('user_identities')
      .values({
        user_id: userId,
        provider: identity.provider,
        subject: identity.subject,
        display_name: identity.displayName,
        email: identity.email,
        attributes: JSON.stringify(identity.attributes),
      })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, IDENTITY_CONFLICT, '这个统一身份已关联到其他账号');
    throw err;
  }
}

/** What the identity server said this time (name, address, attributes), and, on a sign-in, when. */
export async function touchIdentity(
  db: Db,
  userId: number,
  identity: ExternalIdentity,
  signedIn = true,
): Promise<void> {
  await db
    .updateTable('user_identities')
    .set({
      display_name: identity.displayName,
      email: identity.email,
      attributes: JSON.stringify(identity.attributes),
      ...(signedIn ? { last_login_at: new Date() } : {}),
    })
    .where('provider', '=', identity.provider)
    .where(isIdentity('subject', identity))
    .where('user_id', '=', userId)
    .execute();
}

/** Adds the roles the identity's attributes give (audited); returns the user with its roles now. */
export async function grantMappedRoles(db: Kysely<DB>, user: UserRow, roles: readonly Role[]): Promise<UserRow> {
  const missing = roles.filter((r) => !user.roles.includes(r));
  if (missing.length === 0) return user;
  return withAuthChange(db, { userId: user.id }, async (trx) => {
    const row = await trx
      .updateTable('users')
      .set({
        roles: sql<string[]>`array(select distinct unnest(roles || ${missing}::text[]) order by 1)`,
        updated_at: sql`now()`,
      })
      .where('id', '=', user.id)
      .returning('roles')
      .executeTakeFirstOrThrow();
    await recordAudit(
      trx,
      { id: user.id, username: `${user.username}（统一身份认证）`, ip: null },
      {
        action: 'user.sso_roles',
        targetType: 'user',
        targetId: user.id,
        targetName: user.username,
        before: { roles: user.roles },
        after: { roles: row.roles },
      },
    );
    return { ...user, roles: row.roles };
  });
}

/** A username for a new account from the identity: the subject (or preferred_username), made valid. */
export function usernameFor(identity: ExternalIdentity): string {
  const wanted = identity.attributes.preferred_username?.[0] ?? identity.subject;
  let name = wanted
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 28);
  if (!/[A-Za-z0-9]/.test(name)) name = `sso_${sha256(`${identity.provider}:${identity.subject}`).slice(0, 8)}`;
  return name.length < 3 ? `sso_${name}` : name;
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return !!row;
}

/**
 * A new account for the identity, with the roles its attributes give, linked to it. It has no usable
 * password (it signs in through SSO; a password can be set later by e-mail reset or an administrator).
 * `suffix`: when the plain name is taken, the first free `name_2`, `name_3`, ….
 */
export async function createAccountFor(
  db: Kysely<DB>,
  identity: ExternalIdentity,
  roles: readonly Role[],
  opts: { suffix: boolean },
): Promise<UserRow> {
  const base = usernameFor(identity);
  for (let n = 1; n <= 50; n++) {
    const username = n === 1 ? base : `${base.slice(0, 28)}_${n}`;
    if (await usernameTaken(db, username)) {
      if (!opts.suffix) break;
      continue;
    }
    try {
      return await db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('users')
          .values({
            username,
            nickname: identity.displayName?.slice(0, 32) || null,
            password_hash: '!',
            roles: [...roles],
          })
          .returning(['id', 'username', 'nickname', 'avatar', 'roles'])
          .executeTakeFirstOrThrow();
        await linkIdentity(trx, user.id, identity);
        await recordAudit(
          trx,
          { id: user.id, username: `${username}（统一身份认证）`, ip: null },
          {
            action: 'user.create',
            targetType: 'user',
            targetId: user.id,
            targetName: username,
            after: { username, nickname: user.nickname, roles: user.roles, sso: identity.provider },
          },
        );
        return user;
      });
    } catch (err) {
      if (isUniqueViolation(err)) continue; // another sign-in took the name meanwhile
      throw err;
    }
  }
  throw conflict('无法为该统一身份生成可用的用户名，请联系管理员');
}

function toLinked(r: {
  id: number;
  provider: SsoProvider;
  subject: string;
  display_name: string | null;
  email: string | null;
  created_at: Date;
  last_login_at: Date | null;
}): LinkedIdentity {
  return {
    id: r.id,
    provider: r.provider,
    subject: r.subject,
    displayName: r.display_name,
    email: r.email,
    createdAt: r.created_at.toISOString(),
    lastLoginAt: r.last_login_at?.toISOString() ?? null,
  };
}

export async function identitiesOf(db: Db, userId: number): Promise<LinkedIdentity[]> {
  const rows = await db
    .selectFrom('user_identities')
    .select(['id', 'provider', 'subject', 'display_name', 'email', 'created_at', 'last_login_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toLinked);
}

/** Whether the user can sign in with the local password (one is set, and it is not turned off). */
export async function passwordWorks(db: Db, userId: number): Promise<boolean> {
  const u = await db
    .selectFrom('users')
    .select(['password_hash', 'password_login'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return !!u && u.password_login && hasUsablePassword(u.password_hash);
}

export async function listIdentities(db: Db, userId: number): Promise<IdentityList> {
  const [identities, password] = await Promise.all([identitiesOf(db, userId), passwordWorks(db, userId)]);
  return { identities, passwordLogin: password };
}

/** Removes one identity of a user, unless it is the last way to sign in. */
export async function unlinkIdentity(db: Db, userId: number, identityId: number): Promise<LinkedIdentity> {
  const identities = await identitiesOf(db, userId);
  const target = identities.find((i) => i.id === identityId);
  if (!target) throw notFound('该统一身份不存在或已解除关联');
  if (identities.length === 1 && !(await passwordWorks(db, userId))) {
    throw conflict('解除后将无法登录：请先设置密码（可通过“忘记密码”用已验证的邮箱设置），或先关联另一个统一身份');
  }
  await db.deleteFrom('user_identities').where('id', '=', identityId).where('user_id', '=', userId).execute();
  return target;
}
