/**
 * Accounts core: registration, login with throttling, sessions, and the first administrator.
 * Plain functions over a Kysely handle; no HTTP here.
 */
import { sql, type Kysely } from 'kysely';
import { ROLES, type CurrentUser, type Role } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { conflict, forbidden, unauthorized } from '../../errors';
import { DUMMY_HASH, generatePassword, hashPassword, verifyPassword } from '../../lib/password';
import { randomSecret, sha256 } from '../../lib/tokens';
import type { NewSession as CookieSession, SessionUser } from '../../plugins/auth';
import { authCacheOf, withAuthChange } from './auth-cache';
import {
  accountDelayed,
  checkLoginThrottle,
  recordLoginFailure,
  recordLoginSuccess,
  type LoginOrigin,
} from './throttle';

export type { SessionUser };

/** A browser session (no "remember me") lives a day past its last use. */
const BROWSER_SESSION_HOURS = 24;
/** last_seen_at/expires_at are refreshed at most this often, so reads do not become writes. */
const TOUCH_EVERY_MS = 60_000;

export interface UserRow {
  id: number;
  username: string;
  nickname: string | null;
  avatar: string | null;
  roles: string[];
}

export function toCurrentUser(u: UserRow & { mustEnrollTwoFactor?: boolean }): CurrentUser {
  return {
    uid: u.id,
    username: u.username,
    nickname: u.nickname,
    avatar: u.avatar,
    roles: u.roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)),
    ...(u.mustEnrollTwoFactor ? { mustEnrollTwoFactor: true } : {}),
  };
}

/** Whether a user of these roles, with or without two-factor sign-in, must set it up before anything else. */
export function mustEnrollTwoFactor(roles: readonly string[], enabled: boolean, required: readonly string[]): boolean {
  return !enabled && required.some((r) => roles.includes(r));
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

export async function createUser(
  db: Kysely<DB>,
  input: { username: string; password: string; nickname?: string | null; roles?: Role[] },
): Promise<UserRow> {
  const password_hash = await hashPassword(input.password);
  try {
    return await db
      .insertInto('users')
      .values({
        username: input.username,
        nickname: input.nickname || null,
        password_hash,
        roles: input.roles ?? [],
      })
      .returning(['id', 'username', 'nickname', 'avatar', 'roles'])
      .executeTakeFirstOrThrow();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('该用户名已被注册', { username: ['该用户名已被注册'] });
    throw err;
  }
}

export interface SessionMeta {
  ip: string;
  userAgent: string | null;
}

export interface NewSession extends CookieSession {
  persistent: boolean;
}

/** The SSO sign-in a session comes from: CAS single logout finds the session by the ticket's hash. */
export interface SsoOrigin {
  provider: 'cas' | 'oidc';
  sessionHash: string | null;
}

export async function createSession(
  db: Kysely<DB>,
  userId: number,
  persistent: boolean,
  sessionDays: number,
  meta: SessionMeta,
  sso: SsoOrigin | null = null,
): Promise<NewSession> {
  const token = randomSecret(32);
  const ttlMs = persistent ? sessionDays * 86_400_000 : BROWSER_SESSION_HOURS * 3_600_000;
  await db
    .insertInto('sessions')
    .values({
      id_hash: sha256(token),
      user_id: userId,
      persistent,
      expires_at: new Date(Date.now() + ttlMs),
      user_agent: meta.userAgent?.slice(0, 512) ?? null,
      ip: meta.ip,
      sso_provider: sso?.provider ?? null,
      sso_session_hash: sso?.sessionHash ?? null,
    })
    .execute();
  return { token, persistent, maxAgeSeconds: persistent ? sessionDays * 86_400 : null };
}

/**
 * The user behind a session cookie, or null when the session is unknown, expired or the user is disabled.
 * `requireTwoFactor` (REQUIRE_2FA_ROLES): a user of those roles without two-factor sign-in is flagged.
 * What it read is kept in the sign-in cache (auth-cache.ts), so a busy session costs no database round
 * trip; ending the session or changing its user drops it at once, on every instance.
 */
export async function resolveSession(
  db: Kysely<DB>,
  token: string,
  sessionDays: number,
  requireTwoFactor: readonly string[] = [],
): Promise<SessionUser | null> {
  const idHash = sha256(token);
  const cache = authCacheOf(db);
  let entry = cache.getSession(idHash);
  if (!entry) {
    const generation = cache.generation;
    const row = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .leftJoin('user_two_factor as tf', 'tf.user_id', 'u.id')
      .select(['u.id', 'u.username', 'u.nickname', 'u.avatar', 'u.roles', 's.persistent', 's.last_seen_at'])
      .select(['s.expires_at', sql<boolean>`tf.enabled_at is not null`.as('two_factor')])
      .where('s.id_hash', '=', idHash)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .where('u.status', '=', 'active')
      .executeTakeFirst();
    if (!row) return null;
    const { id, username, nickname, avatar, roles } = row;
    entry = cache.putSession(
      idHash,
      {
        user: { id, username, nickname, avatar, roles, sessionIdHash: idHash },
        twoFactor: row.two_factor,
        persistent: row.persistent,
        expiresAt: row.expires_at.getTime(),
        lastSeenAt: row.last_seen_at.getTime(),
      },
      generation,
    );
  }
  const now = Date.now();
  if (now - entry.lastSeenAt > TOUCH_EVERY_MS) {
    const expiresAt = now + (entry.persistent ? sessionDays * 86_400_000 : BROWSER_SESSION_HOURS * 3_600_000);
    const touched = await db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now()`, expires_at: new Date(expiresAt) })
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    if (Number(touched.numUpdatedRows) === 0) {
      // Ended meanwhile by a change this instance has not heard of.
      cache.dropSession(idHash);
      return null;
    }
    entry.lastSeenAt = now;
    entry.expiresAt = expiresAt;
  }
  const { user } = entry;
  return mustEnrollTwoFactor(user.roles, entry.twoFactor, requireTwoFactor)
    ? { ...user, mustEnrollTwoFactor: true }
    : { ...user };
}

/** Signing out: the session ends, and every instance forgets it. */
export async function deleteSession(db: Kysely<DB>, idHash: string): Promise<void> {
  await withAuthChange(db, { sessionHash: idHash }, async (trx) => {
    await trx.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  });
}

export async function register(
  db: Kysely<DB>,
  input: { username: string; password: string; nickname?: string },
  registration: 'open' | 'closed',
): Promise<UserRow> {
  if (registration === 'closed') throw forbidden('管理员已关闭开放注册，请联系管理员创建账号');
  return createUser(db, input);
}

/**
 * The first factor of a login: a user, or — while the account makes browsers it does not know wait,
 * and it has a verified address — a sign-in link to send there, when the password was right (`to`),
 * or nothing to send when it was not. The caller answers both the same way.
 */
export type FirstFactor =
  { kind: 'user'; user: UserRow } | { kind: 'link'; to: { user: UserRow; email: string } | null };

/**
 * Checks the password under the login throttle (./throttle.ts): the first factor only. What follows
 * (the second factor, or the session) is ./identity/sign-in.ts's; nothing is recorded as a success here.
 * `verifiedEmail` (mail configured): an account's verified address, for a sign-in by link while its
 * delay runs; without it, or without an address, the delay is a 429 as before.
 */
export async function checkFirstFactor(
  db: Kysely<DB>,
  input: { username: string; password: string },
  origin: LoginOrigin,
  verifiedEmail: ((userId: number) => Promise<string | null>) | null,
): Promise<FirstFactor> {
  const key = input.username.toLowerCase();
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'avatar', 'roles', 'password_hash', 'status', 'password_login'])
    .where(sql<string>`lower(username)`, '=', key)
    .executeTakeFirst();
  // Checked before the password, so a correct password cannot bypass the throttle.
  const { accountWaitSeconds } = await checkLoginThrottle(db, key, user?.id ?? null, origin);
  const email = accountWaitSeconds > 0 && user && verifiedEmail ? await verifiedEmail(user.id) : null;
  if (accountWaitSeconds > 0 && !email) throw accountDelayed(accountWaitSeconds);
  const valid = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (email) {
    // No session is in reach here: the right password earns a link to the verified address, and the
    // answer does not tell right from wrong, so guessing stays as slow as the delay made it.
    if (!valid) await recordLoginFailure(db, key, origin);
    const usable = valid && user!.status === 'active' && user!.password_login;
    return { kind: 'link', to: usable ? { user: userRowOf(user!), email } : null };
  }
  if (!user || !valid) {
    await recordLoginFailure(db, key, origin);
    throw unauthorized('用户名或密码错误');
  }
  if (user.status !== 'active') throw forbidden('该账号已被停用，请联系管理员');
  if (!user.password_login) throw forbidden('该账号已停用密码登录，请使用统一身份认证登录');
  return { kind: 'user', user: userRowOf(user) };
}

const userRowOf = (u: UserRow): UserRow => ({
  id: u.id,
  username: u.username,
  nickname: u.nickname,
  avatar: u.avatar,
  roles: u.roles,
});

/** The first factor where a session must follow at once (linking an identity): the delay is a 429. */
export async function verifyLogin(
  db: Kysely<DB>,
  input: { username: string; password: string },
  origin: LoginOrigin,
): Promise<UserRow> {
  const first = await checkFirstFactor(db, input, origin, null);
  if (first.kind !== 'user') throw new Error('unreachable: no link without verifiedEmail');
  return first.user;
}

/** The first factor and (when asked) the second are done: the browser becomes known, the login is stamped. */
export async function recordSignIn(db: Kysely<DB>, user: UserRow, origin: LoginOrigin): Promise<string> {
  const device = await recordLoginSuccess(db, user.username.toLowerCase(), user.id, origin);
  await db
    .updateTable('users')
    .set({ last_login_at: sql`now()` })
    .where('id', '=', user.id)
    .execute();
  return device;
}

/**
 * On first start (no administrator exists) create `admin`. Returns the generated password when
 * ADMIN_PASSWORD was not given, so the caller can print it once.
 */
export async function ensureFirstAdmin(
  db: Kysely<DB>,
  adminPassword: string | undefined,
): Promise<{ created: boolean; generatedPassword?: string }> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where(sql<boolean>`'admin' = any(roles)`)
    .executeTakeFirst();
  if (existing) return { created: false };
  const password = adminPassword ?? generatePassword();
  try {
    await createUser(db, { username: 'admin', password, nickname: '管理员', roles: ['admin'] });
  } catch (err) {
    // Another instance on the same PostgreSQL created it first.
    if (err instanceof Error && 'statusCode' in err && (err as { statusCode: number }).statusCode === 409) {
      return { created: false };
    }
    throw err;
  }
  return { created: true, generatedPassword: adminPassword ? undefined : password };
}
