/**
 * A user's preferences for the shell (dark and compact mode, primary colour, side menu collapsed): one
 * row per user who saved any, going with the user. No row means the defaults (src/contract/preferences.ts).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table user_preferences (
      user_id integer primary key references users(id) on delete cascade,
      dark boolean not null,
      compact boolean not null,
      primary_color text not null,
      sider_collapsed boolean not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table user_preferences`.execute(db);
}
