/**
 * Per-kind notification preferences: a user may turn a kind of notification off, and then it is not
 * stored for them at all (no bell count, no live event); or have it forwarded, as a UMS message, to one
 * channel of theirs. No row for a kind: it is on and not forwarded. The rows go with their user; the
 * channel chosen for forwarding, once deleted, forwards nothing more (set null).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table notification_preferences (
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      enabled boolean not null default true,
      forward boolean not null default false,
      primary key (user_id, kind)
    )`.execute(db);
  await sql`create table notification_forwarding (
      user_id integer primary key references users(id) on delete cascade,
      channel_id integer references ums_channels(id) on delete set null
    )`.execute(db);
  // Deleting a channel looks for the rows that point at it.
  await sql`create index notification_forwarding_channel_idx on notification_forwarding (channel_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table notification_forwarding`.execute(db);
  await sql`drop table notification_preferences`.execute(db);
}
