/**
 * rate_limits (migration 0010) becomes an UNLOGGED table: the per-token and per-account counts of the
 * shared rate limits are rewritten on every checked request, and are worth nothing after a crash (the
 * windows are seconds to an hour long). Unlogged, their writes skip the write-ahead log and so the
 * flush to disk at each commit; after a crash PostgreSQL empties the table, which only restarts the
 * windows. Replicas do not get it either: a promoted standby starts with empty counts, the same.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table rate_limits set unlogged`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table rate_limits set logged`.execute(db);
}
