/**
 * NJIT edits that survive the next import. Staff correct a student's record by hand; each field so
 * corrected is remembered here (who, when), so that the next roster import can show the stored value as
 * a manual edit and, unless the importer chooses the roster's value, keep it. A row goes with its
 * student. Taking the roster's value removes the row.
 *
 * Also a status for students a roster no longer lists: 离校 (left). Like 毕业 and 退学 it carries
 * left_at (set by the trigger of migration 0038, redefined here with the third leaving status), so the
 * retention purge treats it like the other two.
 */
import { sql, type Kysely } from 'kysely';

const FIELDS = ['name', 'gender', 'college', 'major', 'className', 'grade', 'status', 'phone', 'idCard', 'dormitory'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table njit_student_edits (
      student_id integer not null references njit_students(id) on delete cascade,
      field text not null check (field in (${sql.join(FIELDS.map((f) => sql.lit(f)))})),
      user_id integer references users(id) on delete set null,
      user_name text not null,
      edited_at timestamptz not null default now(),
      primary key (student_id, field)
    )`.execute(db);

  await sql`alter table njit_students drop constraint njit_students_status_check`.execute(db);
  await sql`alter table njit_students add constraint njit_students_status_check
      check (status in ('在读', '休学', '毕业', '退学', '离校'))`.execute(db);
  await sql`alter table njit_students drop constraint njit_students_left_at_check`.execute(db);
  await sql`alter table njit_students add constraint njit_students_left_at_check
      check ((status in ('毕业', '退学', '离校')) = (left_at is not null))`.execute(db);
  await sql`create or replace function njit_students_left_at() returns trigger language plpgsql as $$
    begin
      if new.status not in ('毕业', '退学', '离校') then
        new.left_at := null;
      elsif tg_op = 'INSERT' then
        new.left_at := coalesce(new.left_at, now());
      elsif old.status not in ('毕业', '退学', '离校') then
        new.left_at := now();
      end if;
      return new;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table njit_student_edits`.execute(db);
}
