/**
 * OCS: the query log loses its index on created_at alone (ocs_queries_created_idx, migration 0006).
 *
 * No query reads the log by time across users: every read names the user first (the history, the
 * overview, the free repeat, the daily AI allowance, reports, the admin's per-user counts), and those
 * go through ocs_queries_user_idx (user, time) and ocs_queries_cache_idx (user, title hash, time). The
 * index was only ever chosen by mistake: migration 0018 tells how a plan made while no query was recent
 * read the last 10 minutes of every user's queries through it. Yet every answered or refused query, so
 * every charge, paid for keeping it. (An earlier estimate put it at ~13 µs of ~132 µs per charge; turns
 * with and without it, measured when it was dropped, were within this machine's noise.)
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists ocs_queries_created_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists ocs_queries_created_idx on ocs_queries (created_at)`.execute(db);
}
