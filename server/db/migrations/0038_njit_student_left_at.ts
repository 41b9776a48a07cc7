/**
 * NJIT retention: a student who graduated (毕业) or left (退学) is purged NJIT_STUDENT_RETENTION_DAYS
 * after leaving, so the record must know when that was. left_at is set by the database itself whenever
 * a row enters a leaving status (an import, an edit, any future path), cleared when it goes back to
 * 在读 or 休学, and kept when it moves between the two leaving statuses.
 *
 * Existing leavers get their updated_at: the last time a roster wrote the row, which is at or after the
 * moment the status changed, so nobody becomes due earlier than they should.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table njit_students add column left_at timestamptz`.execute(db);
  await sql`update njit_students set left_at = updated_at where status in ('毕业', '退学')`.execute(db);
  await sql`alter table njit_students add constraint njit_students_left_at_check
      check ((status in ('毕业', '退学')) = (left_at is not null))`.execute(db);
  // Only leavers carry a date, so the index holds only the rows a purge or its preview reads.
  await sql`create index njit_students_left_at_idx on njit_students (left_at, id) where left_at is not null`.execute(
    db,
  );
  // A row that becomes a leaver gets now(); one that moves between 毕业 and 退学 keeps its date (or the
  // one the statement sets); one that returns is no leaver any more.
  await sql`create function njit_students_left_at() returns trigger language plpgsql as $$
    begin
      if new.status not in ('毕业', '退学') then
        new.left_at := null;
      elsif tg_op = 'INSERT' then
        new.left_at := coalesce(new.left_at, now());
      elsif old.status not in ('毕业', '退学') then
        new.left_at := now();
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger njit_students_left_at before insert or update on njit_students
      for each row execute function njit_students_left_at()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger njit_students_left_at on njit_students`.execute(db);
  await sql`drop function njit_students_left_at()`.execute(db);
  await sql`alter table njit_students drop column left_at`.execute(db);
}
