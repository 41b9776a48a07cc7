/**
 * NJIT: a student's access report (every search that listed them, every view, reveal and export of
 * their record) reads the audit rows whose records contain the student: a GIN index on the array
 * answers that containment without reading the whole trail.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index njit_audit_record_ids_idx on njit_audit using gin (record_ids)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index njit_audit_record_ids_idx`.execute(db);
}
