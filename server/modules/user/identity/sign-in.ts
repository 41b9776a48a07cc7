/**
 * What follows a right first factor (a password, or a CAS/OIDC sign-in): either a session at once, or —
 * when the account uses two-factor sign-in and this browser is not trusted — a login challenge that
 * only the right code turns into a session. The login throttle (../throttle.ts) covers the codes as it
 * covers passwords: each wrong code is a failure of the account, and each challenge allows
 * CHALLENGE_MAX_ATTEMPTS wrong codes before the password must be entered again.
 */
import { sql, type Kysely } from 'kysely';
import { CHALLENGE_MAX_ATTEMPTS, type CurrentUser } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { HttpError, unauthorized } from '../../../errors';
import type { SecretBox } from '../../../lib/secretbox';
import { randomSecret, sha256 } from '../../../lib/tokens';
import {
  createSession,
  mustEnrollTwoFactor,
  recordSignIn,
  toCurrentUser,
  type NewSession,
  type SessionMeta,
  type SsoOrigin,
  type UserRow,
} from '../service';
import { accountDelayed, checkLoginThrottle, recordLoginFailure, type LoginOrigin } from '../throttle';
import * as twoFactor from './two-factor';

/** A challenge waits this long for its code. */
export const CHALLENGE_MINUTES = 10;
/** The cookie holding a login challenge (HttpOnly, path /api/user, CHALLENGE_MINUTES). */
export const CHALLENGE_COOKIE = 'portal_mfa';

export interface SignInContext {
  db: Kysely<DB>;
  secrets: SecretBox;
  sessionDays: number;
  requireTwoFactor: readonly string[];
}

export type SignInOutcome =
  | { kind: 'session'; user: CurrentUser; session: NewSession; device: string }
  | { kind: 'challenge'; challenge: string };

async function openSession(
  ctx: SignInContext,
  user: UserRow,
  remember: boolean,
  origin: LoginOrigin,
  meta: SessionMeta,
  sso: SsoOrigin | null,
  twoFactorOn: boolean,
): Promise<SignInOutcome & { kind: 'session' }> {
  const device = await recordSignIn(ctx.db, user, origin);
  const session = await createSession(ctx.db, user.id, remember, ctx.sessionDays, meta, sso);
  const mustEnroll = mustEnrollTwoFactor(user.roles, twoFactorOn, ctx.requireTwoFactor);
  return { kind: 'session', user: toCurrentUser({ ...user, mustEnrollTwoFactor: mustEnroll }), session, device };
}

/** The first factor was right: a session, or a challenge for the second. */
export async function afterFirstFactor(
  ctx: SignInContext,
  user: UserRow,
  opts: { remember: boolean; origin: LoginOrigin; meta: SessionMeta; sso?: SsoOrigin | null },
): Promise<SignInOutcome> {
  const twoFactorOn = await twoFactor.isEnabled(ctx.db, user.id);
  if (twoFactorOn && !(await twoFactor.isTrustedBrowser(ctx.db, user.id, opts.origin.device))) {
    const challenge = randomSecret(32);
    await ctx.db
      .insertInto('login_challenges')
      .values({
        id_hash: sha256(challenge),
        user_id: user.id,
        remember: opts.remember,
        expires_at: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
        sso_provider: opts.sso?.provider ?? null,
        sso_session_hash: opts.sso?.sessionHash ?? null,
      })
      .execute();
    return { kind: 'challenge', challenge };
  }
  return openSession(ctx, user, opts.remember, opts.origin, opts.meta, opts.sso ?? null, twoFactorOn);
}

const expired = (message = '登录已过期，请重新输入密码') => new HttpError(401, 'CHALLENGE_EXPIRED', message);

/** The second step: the challenge from the cookie and a code. Throws 401 for a wrong code (counted). */
export async function verifyChallenge(
  ctx: SignInContext,
  challenge: string | undefined,
  input: { code: string; trustBrowser: boolean },
  origin: LoginOrigin,
  meta: SessionMeta,
): Promise<SignInOutcome & { kind: 'session' }> {
  if (!challenge || challenge.length > 128) throw expired();
  const idHash = sha256(challenge);
  const row = await ctx.db
    .selectFrom('login_challenges as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'c.user_id',
      'c.remember',
      'c.attempts',
      'c.sso_provider',
      'c.sso_session_hash',
      'u.username',
      'u.nickname',
      'u.avatar',
      'u.roles',
      'u.status',
    ])
    .where('c.id_hash', '=', idHash)
    .where('c.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  if (!row) throw expired();
  if (row.status !== 'active') {
    await ctx.db.deleteFrom('login_challenges').where('id_hash', '=', idHash).execute();
    throw expired('该账号已被停用，请联系管理员');
  }
  const key = row.username.toLowerCase();
  const { accountWaitSeconds } = await checkLoginThrottle(ctx.db, key, row.user_id, origin);
  if (accountWaitSeconds > 0) throw accountDelayed(accountWaitSeconds);
  const ok = await twoFactor.verifySecondFactor(ctx.db, ctx.secrets, row.user_id, input.code);
  if (!ok) {
    await recordLoginFailure(ctx.db, key, origin);
    const counted = await ctx.db
      .updateTable('login_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id_hash', '=', idHash)
      .returning('attempts')
      .executeTakeFirst();
    const left = CHALLENGE_MAX_ATTEMPTS - (counted?.attempts ?? CHALLENGE_MAX_ATTEMPTS);
    if (left <= 0) {
      await ctx.db.deleteFrom('login_challenges').where('id_hash', '=', idHash).execute();
      throw expired('验证码错误次数过多，请重新输入密码登录');
    }
    throw unauthorized(`验证码不正确，还可以再试 ${left} 次`);
  }
  // Single use: of two requests with right codes, one gets the session.
  const taken = await ctx.db.deleteFrom('login_challenges').where('id_hash', '=', idHash).executeTakeFirst();
  if (Number(taken.numDeletedRows) !== 1) throw expired();
  const user: UserRow = {
    id: row.user_id,
    username: row.username,
    nickname: row.nickname,
    avatar: row.avatar,
    roles: row.roles,
  };
  const sso = row.sso_provider
    ? { provider: row.sso_provider as SsoOrigin['provider'], sessionHash: row.sso_session_hash }
    : null;
  const outcome = await openSession(ctx, user, row.remember, origin, meta, sso, true);
  if (input.trustBrowser) await twoFactor.trustBrowser(ctx.db, user.id, outcome.device);
  return outcome;
}

export function signInContext(deps: {
  db: Kysely<DB>;
  secrets: SecretBox;
  config: { SESSION_DAYS: number; REQUIRE_2FA_ROLES: readonly string[] };
}): SignInContext {
  return {
    db: deps.db,
    secrets: deps.secrets,
    sessionDays: deps.config.SESSION_DAYS,
    requireTwoFactor: deps.config.REQUIRE_2FA_ROLES,
  };
}
