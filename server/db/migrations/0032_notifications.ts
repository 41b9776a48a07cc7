/**
 * The notification centre: what the portal tells a user about their own things (a message that
 * failed for good, a report decided, a sign-in from a new browser; for administrators, new reports).
 * A row belongs to its user and goes with them. A personal token remembers when its owner was told it
 * expires soon (told once).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table notifications (
      id integer generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      title text not null,
      body text not null default '',
      link text,
      created_at timestamptz not null default now(),
      read_at timestamptz
    )`.execute(db);
  await sql`create index notifications_user_id_idx on notifications (user_id, id desc)`.execute(db);
  await sql`create index notifications_unread_idx on notifications (user_id) where read_at is null`.execute(db);
  await sql`alter table api_tokens add column expiry_told_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table api_tokens drop column expiry_told_at`.execute(db);
  await sql`drop table notifications`.execute(db);
}
