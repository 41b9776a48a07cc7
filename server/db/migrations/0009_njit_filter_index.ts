/**
 * NJIT filter search (college / major / grade / status, no name or number): the filter indexes end in
 * student_no, the order results are listed in. A filter search then takes its page's student numbers
 * from an index alone (already in order when every column before student_no is given, else by sorting
 * index entries) and reads only that page from the table, where it read and sorted every match (400 to
 * 10,000+ table rows per search at 100,000 students). The capped total counts from the same indexes.
 * Each replaces the 0005 index it extends; status alone, which had none, gets one. The class index stays:
 * a class is small. student_no is in the default collation here (ORDER BY's), unlike njit_students_no_key.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index njit_students_org_no_idx on njit_students (college, major, grade, status, student_no)`.execute(
    db,
  );
  await sql`drop index njit_students_org_idx`.execute(db);
  await sql`create index njit_students_grade_no_idx on njit_students (grade, status, student_no)`.execute(db);
  await sql`drop index njit_students_grade_idx`.execute(db);
  // Status alone (all students on leave, say) had no index and sorted the whole table.
  await sql`create index njit_students_status_no_idx on njit_students (status, student_no)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index njit_students_status_no_idx`.execute(db);
  await sql`create index njit_students_grade_idx on njit_students (grade, status)`.execute(db);
  await sql`drop index njit_students_grade_no_idx`.execute(db);
  await sql`create index njit_students_org_idx on njit_students (college, major, grade, status)`.execute(db);
  await sql`drop index njit_students_org_no_idx`.execute(db);
}
