/**
 * Login throttling that slows guessing without letting anyone lock a user out. The failures live in
 * the database (login_failures), so every rule holds across instances.
 *
 * - Per IP, across usernames (password spraying): LOGIN_IP_MAX_FAILURES failures from one address in
 *   the window and that address waits until the oldest leaves it.
 * - Per account, across addresses (a distributed guess): after LOGIN_ACCOUNT_FREE_FAILURES failures
 *   from browsers the account does not know, each further attempt from such a browser waits a delay
 *   that doubles with every failure (5 s, 10 s, … up to LOGIN_MAX_DELAY_SECONDS). Never a lock.
 * - A known browser (one that signed in to this account before, proven by its device cookie, or one
 *   holding a session of the account) is exempt from both: failures made elsewhere never stop the right
 *   password from the user's own browser. Its own failures are capped separately.
 * - While the account's delay runs, an unknown browser of an account with a verified address is not
 *   kept waiting: its password is checked, and the right one earns a sign-in link by e-mail instead
 *   of a session (the answer is the same either way; ../service.ts). An attacker who fails once each
 *   time the delay ends thus stays slow, and the owner gets in from a new browser all the same.
 * - An administrator can clear an account's failures (unlockLogin).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { LOGIN_FREE_FAILURES } from '../../../src/contract';
import { notify } from '../notifications';
import type { DB } from '../../db/schema';
import { tooMany } from '../../errors';
import { randomSecret, sha256 } from '../../lib/tokens';

export const LOGIN_WINDOW_MINUTES = 15;
export const LOGIN_IP_MAX_FAILURES = 20;
export const LOGIN_ACCOUNT_FREE_FAILURES = LOGIN_FREE_FAILURES;
export const LOGIN_MAX_DELAY_SECONDS = 300;
export const LOGIN_DEVICE_MAX_FAILURES = 10;
/** The device cookie: a random id per browser, remembered per account after a successful login. */
export const DEVICE_COOKIE = 'portal_device';
export const DEVICE_COOKIE_DAYS = 365;

/** Where a login attempt comes from. */
export interface LoginOrigin {
  ip: string;
  /** The device cookie's value, if the browser sent a plausible one. */
  device: string | null;
  /** The user of a session the browser already holds, if any. */
  sessionUserId: number | null;
}

/** A device cookie value worth looking up (ours are 43 base64url characters). */
export function plausibleDevice(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

export function newDeviceId(): string {
  return randomSecret(32);
}

/** The delay an account imposes on unknown browsers after `failures` recent failures, in seconds. */
export function accountDelaySeconds(failures: number): number {
  if (failures < LOGIN_ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(LOGIN_MAX_DELAY_SECONDS, 5 * 2 ** (failures - LOGIN_ACCOUNT_FREE_FAILURES));
}

const windowStart = () => sql<Date>`now() - make_interval(mins => ${LOGIN_WINDOW_MINUTES})`;

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

async function isKnownDevice(db: Kysely<DB>, userId: number | null, origin: LoginOrigin): Promise<boolean> {
  if (userId === null) return false;
  if (origin.sessionUserId === userId) return true;
  if (!origin.device) return false;
  const row = await db
    .selectFrom('login_devices')
    .select('user_id')
    .where('id_hash', '=', sha256(origin.device))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}

/** The account's delay for browsers it does not know: 429 with Retry-After. */
export const accountDelayed = (wait: number) =>
  tooMany(`该账号近期登录失败次数较多，请 ${Math.ceil(wait)} 秒后再试（在常用浏览器上登录不受影响）`, wait);

/**
 * Throws 429 (with Retry-After) when this attempt must wait for its address or its own browser's
 * failures; checked before the password, so a correct password cannot skip it. `userId` is null for an
 * unknown username (the same rules apply, so the answers do not tell which names exist). Returns
 * whether the browser is known to the account, and how long the account still makes an unknown browser
 * wait (0: not at all): the caller refuses with accountDelayed(), or checks the password without a
 * session in reach (a mailed link).
 */
export async function checkLoginThrottle(
  db: Kysely<DB>,
  username: string,
  userId: number | null,
  origin: LoginOrigin,
): Promise<{ knownDevice: boolean; accountWaitSeconds: number }> {
  const knownDevice = await isKnownDevice(db, userId, origin);
  if (knownDevice) {
    if (!origin.device) return { knownDevice, accountWaitSeconds: 0 };
    const own = await db
      .selectFrom('login_failures')
      .select('at')
      .where('username', '=', username)
      .where('device', '=', sha256(origin.device))
      .where('at', '>', windowStart())
      .orderBy('at', 'desc')
      .limit(LOGIN_DEVICE_MAX_FAILURES)
      .execute();
    if (own.length >= LOGIN_DEVICE_MAX_FAILURES) {
      const wait = (own[own.length - 1]!.at.getTime() + LOGIN_WINDOW_MINUTES * 60_000 - Date.now()) / 1000;
      if (wait > 0) throw tooMany(`密码错误次数过多，请 ${minutes(wait)} 分钟后再试`, wait);
    }
    return { knownDevice, accountWaitSeconds: 0 };
  }

  const fromIp = await db
    .selectFrom('login_failures')
    .select('at')
    .where('ip', '=', origin.ip)
    .where('at', '>', windowStart())
    .orderBy('at', 'desc')
    .limit(LOGIN_IP_MAX_FAILURES)
    .execute();
  if (fromIp.length >= LOGIN_IP_MAX_FAILURES) {
    const wait = (fromIp[fromIp.length - 1]!.at.getTime() + LOGIN_WINDOW_MINUTES * 60_000 - Date.now()) / 1000;
    if (wait > 0) throw tooMany(`当前网络登录失败次数过多，请 ${minutes(wait)} 分钟后再试`, wait);
  }

  // Failures of this account from browsers it does not know (its own browsers' failures do not count).
  const known = db
    .selectFrom('login_devices')
    .select('id_hash')
    .where('user_id', '=', userId ?? -1);
  const recent = await db
    .selectFrom('login_failures')
    .select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`max(at)`.as('last')])
    .where('username', '=', username)
    .where('at', '>', windowStart())
    .where((eb) => eb.or([eb('device', 'is', null), eb('device', 'not in', known)]))
    .executeTakeFirstOrThrow();
  const delay = accountDelaySeconds(Number(recent.n));
  const wait = delay > 0 && recent.last ? (recent.last.getTime() + delay * 1000 - Date.now()) / 1000 : 0;
  return { knownDevice, accountWaitSeconds: Math.max(0, wait) };
}

export async function recordLoginFailure(db: Kysely<DB>, username: string, origin: LoginOrigin): Promise<void> {
  await db
    .insertInto('login_failures')
    .values({ username, ip: origin.ip, device: origin.device ? sha256(origin.device) : null })
    .execute();
  await db
    .deleteFrom('login_failures')
    .where('at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}

/**
 * After the right password: this browser's and this address's failures for the account go (failures
 * made elsewhere stay: they are someone else's), and the browser becomes known to the account.
 * Returns the device id the browser should keep (its own, or a new one).
 */
export async function recordLoginSuccess(
  db: Kysely<DB>,
  username: string,
  userId: number,
  origin: LoginOrigin,
): Promise<string> {
  const device = origin.device ?? newDeviceId();
  await db
    .deleteFrom('login_failures')
    .where('username', '=', username)
    .where((eb) => eb.or([eb('ip', '=', origin.ip), eb('device', '=', sha256(device))]))
    .execute();
  const known = await db.selectFrom('login_devices').select(['id_hash']).where('user_id', '=', userId).execute();
  const id = await rememberDevice(db, userId, device);
  // A browser the account did not know, while it knows others: the owner hears of it.
  if (known.length > 0 && !known.some((k) => k.id_hash === sha256(id))) {
    await notify(db, userId, {
      kind: 'user.new-browser',
      title: '你的账号在新的浏览器上登录',
      body: `登录地址 ${origin.ip}。如果不是你本人，请立即修改密码并退出其他会话。`,
      link: '/user/security',
    });
  }
  return id;
}

/** A browser that just registered an account is that account's own: it becomes known to it. */
export async function rememberDevice(db: Kysely<DB>, userId: number, device: string | null): Promise<string> {
  const id = device ?? newDeviceId();
  await db
    .insertInto('login_devices')
    .values({ id_hash: sha256(id), user_id: userId })
    .onConflict((oc) => oc.columns(['id_hash', 'user_id']).doUpdateSet({ last_used_at: sql`now()` }))
    .execute();
  return id;
}

/** An administrator's unlock: every recent failure of the account goes. Returns how many. */
export async function clearLoginFailures(db: Kysely<DB> | Transaction<DB>, username: string): Promise<number> {
  const res = await db.deleteFrom('login_failures').where('username', '=', username.toLowerCase()).executeTakeFirst();
  return Number(res.numDeletedRows);
}
