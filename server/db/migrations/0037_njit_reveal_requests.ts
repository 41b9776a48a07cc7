/**
 * NJIT four-eyes reveals: with NJIT_REVEAL_APPROVAL naming a field, showing it in full takes a request
 * (field, student, reason) that another administrator approves; the requester then sees the value for a
 * few minutes. A request goes with its student and with its requester; the value itself is never stored
 * here. One pending request per requester, student and field (a second click is the same request).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table njit_reveal_requests (
      id integer generated always as identity primary key,
      student_id integer not null references njit_students(id) on delete cascade,
      field text not null check (field in ('phone', 'idCard')),
      reason text not null,
      requester_id integer not null references users(id) on delete cascade,
      requester_name text not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'refused')),
      decider_id integer references users(id) on delete set null,
      decider_name text,
      decided_at timestamptz,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      check (status = 'pending' or (decided_at is not null and decider_name is not null)),
      check (status <> 'approved' or expires_at is not null)
    )`.execute(db);
  await sql`create unique index njit_reveal_requests_one_pending on njit_reveal_requests (requester_id, student_id, field)
      where status = 'pending'`.execute(db);
  await sql`create index njit_reveal_requests_requester_idx on njit_reveal_requests (requester_id, id desc)`.execute(
    db,
  );
  await sql`create index njit_reveal_requests_pending_idx on njit_reveal_requests (id desc) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table njit_reveal_requests`.execute(db);
}
