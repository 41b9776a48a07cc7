/**
 * Every PostgreSQL advisory lock the portal takes, in one place, so two parts of the code never pick
 * the same key by chance and a reader finds what serializes what. All are transaction-scoped: released
 * at commit or rollback, so none outlives the work it guards.
 *
 * - `user-admin`: every administrator's change to users, so the last enabled administrator cannot be
 *   disabled or demoted by two changes at once.
 * - `ocs-settings`: saves of the OCS settings, so each audit row's "before" is what that save replaced.
 * - `ocs-report` (per user): one user's reports one at a time (the daily count and the duplicate checks).
 * - `ocs-redeem` (per user): one redeem attempt per user at a time (the failure count and the code).
 * - `ocs-misses`: the instances' writes of counted misses one at a time, so exactly one of them sees the
 *   未收录 queue cross the size its administrators are told of.
 * - `ums-pace` (per pace key): the workers reserving a slot of one paced channel or robot.
 * - `ums-scheduled` (per user): sends that count the user's scheduled messages one after another.
 * - `ums-consent` (per user): new e-mail recipients counted against the user's daily cap one at a time.
 */
import { sql, type Kysely } from 'kysely';

export type LockName =
  | 'user-admin'
  | 'ocs-settings'
  | 'ocs-report'
  | 'ocs-redeem'
  | 'ocs-misses'
  | 'ums-pace'
  | 'ums-scheduled'
  | 'ums-consent';

/**
 * Waits for the named lock (for one user id or text key, or the whole name) until the transaction
 * ends. The name and the key are hashed by PostgreSQL's hashtext into the lock's two 32-bit halves.
 */
export async function lockFor(trx: Kysely<any>, name: LockName, key?: number | string): Promise<void> {
  if (key === undefined) await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
  else if (typeof key === 'number') await sql`select pg_advisory_xact_lock(hashtext(${name}), ${key})`.execute(trx);
  else await sql`select pg_advisory_xact_lock(hashtext(${name}), hashtext(${key}))`.execute(trx);
}
