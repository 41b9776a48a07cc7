/**
 * How busy the database connection is, for /metrics: the pg pool's connections on PostgreSQL, the
 * requests waiting for the PGlite worker on the embedded database. openDatabase() registers the source
 * against the Kysely handle, so code that holds only `db` can read it (as with notify.ts).
 */
import type { Kysely } from 'kysely';
import type { DB } from './schema';

export type PoolStats =
  | { kind: 'postgres'; total: number; idle: number; waiting: number }
  /** inUseMs: milliseconds so far during which at least one statement was queued or running. */
  | { kind: 'pglite'; pending: number; inUseMs: number };

const sources = new WeakMap<object, () => PoolStats>();

export function registerPoolStats(db: Kysely<DB>, read: () => PoolStats): void {
  sources.set(db, read);
}

/** The source registered for this handle, or undefined (a handle not made by openDatabase). */
export function poolStatsOf(db: Kysely<DB>): (() => PoolStats) | undefined {
  return sources.get(db);
}
