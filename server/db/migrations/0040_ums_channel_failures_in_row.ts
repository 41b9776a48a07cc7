/**
 * UMS: how many delivery attempts in a row a channel has failed (reset by a delivered one). Kept on the
 * channel row and bumped in the statement that records each answer, so the attempt that makes it reach
 * UMS_CHANNEL_FAILING_NOTIFY_AT is exactly one, on any instance, and administrators are told once.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ums_channels add column failures_in_row integer not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ums_channels drop column failures_in_row`.execute(db);
}
