/**
 * A user's e-mail address and password reset by e-mail. An address counts once its verification link
 * was opened; a reset link goes only to a verified address, expires after PASSWORD_RESET_MINUTES and
 * works once. Links carry a random secret the database knows only by its hash; it travels in the
 * page's #fragment, so it never reaches a server log. A reset ends every session of the user.
 */
import { sql, type Kysely } from 'kysely';
import {
  EMAIL_VERIFY_HOURS,
  LOGIN_LINK_MINUTES,
  PASSWORD_RESET_MINUTES,
  type EmailStatus,
} from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { badRequest, conflict, HttpError } from '../../../errors';
import { hashPassword } from '../../../lib/password';
import { randomSecret, sha256 } from '../../../lib/tokens';
import { clearLoginFailures } from '../throttle';
import { authCacheOf } from '../auth-cache';
import { revokeAllTokens } from '../tokens';
import { linkMail, type Mailer } from './mailer';

/** Mail can be sent, and links point at a base URL nobody can forge (PUBLIC_URL, not a Host header). */
export interface MailLinks {
  mailer: Mailer;
  baseUrl: string | null;
}

export const mailReady = (m: MailLinks) => m.mailer.enabled && !!m.baseUrl;

const notConfigured = () => new HttpError(409, 'MAIL_NOT_CONFIGURED', '门户未配置邮件服务，无法发送邮件，请联系管理员');

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

export async function getEmailStatus(db: Kysely<DB>, userId: number, mail: MailLinks): Promise<EmailStatus> {
  const row = await db.selectFrom('user_emails').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return {
    email: row?.email ?? null,
    verifiedAt: row?.verified_at?.toISOString() ?? null,
    pendingEmail: row?.pending_email ?? null,
    pendingSentAt: row?.pending_sent_at?.toISOString() ?? null,
    mailConfigured: mailReady(mail),
  };
}

async function issueToken(
  db: Kysely<DB>,
  userId: number,
  purpose: 'verify' | 'reset' | 'login',
  email: string,
  minutes: number,
): Promise<string> {
  const token = randomSecret(32);
  await db
    .insertInto('email_tokens')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      purpose,
      email,
      expires_at: new Date(Date.now() + minutes * 60_000),
    })
    .execute();
  return token;
}

/** A new address: stored as pending and a verification link mailed to it (the old address keeps working). */
export async function requestEmailChange(
  db: Kysely<DB>,
  mail: MailLinks,
  user: { id: number; username: string },
  email: string,
): Promise<EmailStatus> {
  if (!mailReady(mail)) throw notConfigured();
  const current = await db.selectFrom('user_emails').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  if (current?.email && current.email.toLowerCase() === email.toLowerCase()) {
    throw badRequest('这已经是你验证过的邮箱', { email: ['这已经是你验证过的邮箱'] });
  }
  const owner = await db
    .selectFrom('user_emails')
    .select('user_id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  if (owner && owner.user_id !== user.id) {
    throw conflict('该邮箱已被其他账号使用', { email: ['该邮箱已被其他账号使用'] });
  }
  const token = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('user_emails')
      .values({ user_id: user.id, pending_email: email, pending_sent_at: new Date() })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ pending_email: email, pending_sent_at: new Date(), updated_at: sql`now()` }),
      )
      .execute();
    // An earlier link (to another address, maybe) stops working.
    await trx.deleteFrom('email_tokens').where('user_id', '=', user.id).where('purpose', '=', 'verify').execute();
    return issueToken(trx, user.id, 'verify', email, EMAIL_VERIFY_HOURS * 60);
  });
  try {
    await mail.mailer.send(
      linkMail(
        email,
        '统一门户：验证你的邮箱',
        [
          `你好，${user.username}：`,
          `请在 ${EMAIL_VERIFY_HOURS} 小时内打开下面的链接，确认这是你的邮箱。验证后可用它找回密码。`,
        ],
        { text: '验证邮箱', url: `${mail.baseUrl}/user/verifyEmail#token=${token}` },
      ),
    );
  } catch {
    throw new HttpError(502, 'MAIL_FAILED', '验证邮件发送失败，请稍后再试；如果一直失败，请联系管理员');
  }
  return getEmailStatus(db, user.id, mail);
}

/** Opens a verification link: the address becomes the account's verified one. */
export async function verifyEmail(db: Kysely<DB>, token: string): Promise<{ email: string }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('email_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', sha256(token))
      .where('purpose', '=', 'verify')
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['user_id', 'email'])
      .executeTakeFirst();
    if (!row) throw badRequest('验证链接无效、已使用或已过期，请在个人中心重新发送验证邮件', { token: ['链接无效'] });
    try {
      await trx
        .updateTable('user_emails')
        .set({
          email: row.email,
          verified_at: new Date(),
          pending_email: sql`case when lower(pending_email) = lower(${row.email}) then null else pending_email end`,
          pending_sent_at: sql`case when lower(pending_email) = lower(${row.email}) then null else pending_sent_at end`,
          updated_at: sql`now()`,
        })
        .where('user_id', '=', row.user_id)
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('该邮箱已被其他账号验证使用');
      throw err;
    }
    return { email: row.email };
  });
}

export async function removeEmail(db: Kysely<DB>, userId: number, mail: MailLinks): Promise<EmailStatus> {
  await db.deleteFrom('user_emails').where('user_id', '=', userId).execute();
  await db.deleteFrom('email_tokens').where('user_id', '=', userId).execute();
  return getEmailStatus(db, userId, mail);
}

/**
 * A forgotten password: if the account (by username or by verified address) exists, is active, may
 * use a password and has a verified address, a reset link is mailed there. The caller answers the same
 * whatever happens here, and does not wait for it.
 */
export async function sendPasswordReset(db: Kysely<DB>, mail: MailLinks, account: string): Promise<boolean> {
  if (!mailReady(mail)) return false;
  const key = account.trim().toLowerCase();
  const user = await db
    .selectFrom('users as u')
    .innerJoin('user_emails as e', 'e.user_id', 'u.id')
    .select(['u.id', 'u.username', 'e.email'])
    .where('u.status', '=', 'active')
    .where('u.password_login', '=', true)
    .where('e.email', 'is not', null)
    .where((eb) =>
      key.includes('@') ? eb(sql<string>`lower(e.email)`, '=', key) : eb(sql<string>`lower(u.username)`, '=', key),
    )
    .executeTakeFirst();
  if (!user?.email) return false;
  const token = await issueToken(db, user.id, 'reset', user.email, PASSWORD_RESET_MINUTES);
  await mail.mailer.send(
    linkMail(
      user.email,
      '统一门户：重置密码',
      [
        `你好，${user.username}：`,
        `有人（希望是你）申请重置统一门户的登录密码。链接 ${PASSWORD_RESET_MINUTES} 分钟内有效，只能使用一次；重置后，该账号所有已登录的设备都会退出。`,
      ],
      { text: '重置密码', url: `${mail.baseUrl}/user/resetPassword#token=${token}` },
    ),
  );
  return true;
}

/** Sign-in links mailed to one account per hour at most (only the right password sends one). */
export const LOGIN_LINKS_PER_HOUR = 3;

/** The account's verified address, when mail can be sent; else null. */
export async function verifiedEmailOf(db: Kysely<DB>, mail: MailLinks, userId: number): Promise<string | null> {
  if (!mailReady(mail)) return null;
  const row = await db
    .selectFrom('user_emails')
    .select('email')
    .where('user_id', '=', userId)
    .where('email', 'is not', null)
    .executeTakeFirst();
  return row?.email ?? null;
}

/**
 * A sign-in link for a login whose password was right while the account made unknown browsers wait
 * (../service.ts checkFirstFactor): mailed to the verified address, working once for
 * LOGIN_LINK_MINUTES; at most LOGIN_LINKS_PER_HOUR an hour. Sent after the answer.
 */
export async function sendLoginLink(
  db: Kysely<DB>,
  mail: MailLinks,
  to: { user: { id: number; username: string }; email: string },
): Promise<boolean> {
  const recent = await db
    .selectFrom('email_tokens')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', to.user.id)
    .where('purpose', '=', 'login')
    .where('created_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  if (recent.n >= LOGIN_LINKS_PER_HOUR) return false;
  const token = await issueToken(db, to.user.id, 'login', to.email, LOGIN_LINK_MINUTES);
  await mail.mailer.send(
    linkMail(
      to.email,
      '统一门户：登录链接',
      [
        `你好，${to.user.username}：`,
        `你的账号近期有多次登录失败，从新的浏览器登录需要等待。刚才有人（希望是你）在新的浏览器上输入了正确的密码，用下面的链接即可登录，不必等待。链接 ${LOGIN_LINK_MINUTES} 分钟内有效，只能使用一次。`,
        '如果不是你本人，说明你的密码可能已经泄露，请尽快修改密码。',
      ],
      { text: '登录统一门户', url: `${mail.baseUrl}/user/loginLink#token=${token}` },
    ),
  );
  return true;
}

/** Opens a sign-in link (once): its account, while it may still sign in with a password. */
export async function consumeLoginLink(
  db: Kysely<DB>,
  token: string,
): Promise<{ id: number; username: string; nickname: string | null; avatar: string | null; roles: string[] }> {
  const invalid = () =>
    badRequest('登录链接无效、已使用或已过期，请重新登录', { token: ['登录链接无效、已使用或已过期'] });
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', 'login')
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  if (!row) throw invalid();
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'nickname', 'avatar', 'roles'])
    .where('id', '=', row.user_id)
    .where('status', '=', 'active')
    .where('password_login', '=', true)
    .executeTakeFirst();
  if (!user) throw invalid();
  return user;
}

const invalidReset = () =>
  badRequest('重置链接无效、已使用或已过期，请重新申请', { token: ['重置链接无效、已使用或已过期'] });

/** Whose password a reset link resets; 400 for a link that no longer works. */
export async function checkReset(db: Kysely<DB>, token: string): Promise<{ username: string }> {
  const row = await db
    .selectFrom('email_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select('u.username')
    .where('t.token_hash', '=', sha256(token))
    .where('t.purpose', '=', 'reset')
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', sql<Date>`now()`)
    .where('u.status', '=', 'active')
    .executeTakeFirst();
  if (!row) throw invalidReset();
  return row;
}

/** Sets the new password from a reset link (once), ends every session and, unless told not to, revokes every token. */
export async function resetPassword(
  db: Kysely<DB>,
  input: { token: string; newPassword: string; revokeTokens: boolean },
): Promise<{ endedSessions: number; revokedTokens: number }> {
  const hash = await hashPassword(input.newPassword);
  const auth = authCacheOf(db);
  let userId = 0;
  const result = await db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('email_tokens')
      .set({ used_at: new Date() })
      .where('token_hash', '=', sha256(input.token))
      .where('purpose', '=', 'reset')
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id')
      .executeTakeFirst();
    if (!row) throw invalidReset();
    userId = row.user_id;
    const user = await trx
      .selectFrom('users')
      .select('username')
      .where('id', '=', userId)
      .where('status', '=', 'active')
      .where('password_login', '=', true)
      .executeTakeFirst();
    if (!user) throw invalidReset();
    await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: sql`now()` })
      .where('id', '=', userId)
      .execute();
    // Every other reset link of the user stops working too.
    await trx
      .updateTable('email_tokens')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('purpose', '=', 'reset')
      .where('used_at', 'is', null)
      .execute();
    await auth.announce(trx, { userId });
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    await trx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
    await clearLoginFailures(trx, user.username);
    const revokedTokens = input.revokeTokens ? await revokeAllTokens(trx, userId) : 0;
    return { endedSessions: Number(ended.numDeletedRows), revokedTokens };
  });
  auth.forget({ userId });
  return result;
}
