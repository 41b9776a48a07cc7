/**
 * Per-kind notification preferences: a user may turn a kind of notification off, and then it is not
 * stored for them at all (no bell count, no live event). No row for a kind: it is on. The rows go with
 * their user.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table notification_preferences (
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      enabled boolean not null,
      primary key (user_id, kind)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table notification_preferences`.execute(db);
}
