/**
 * NJIT student lookup: the roster, staged imports, import history and the njit audit trail (which
 * the per-user rate limit counts, so it holds across instances).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('njit_students')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('student_no', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // Precomputed at import so search never converts at query time: 'zhangsan', 'zs'.
    .addColumn('name_pinyin', 'text', (c) => c.notNull())
    .addColumn('name_initials', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('男', '女')`))
    .addColumn('college', 'text')
    .addColumn('major', 'text')
    .addColumn('class_name', 'text')
    .addColumn('grade', 'integer')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('在读', '休学', '毕业', '退学')`))
    .addColumn('phone', 'text')
    .addColumn('id_card', 'text')
    .addColumn('dormitory', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // text_pattern_ops: equality and `like 'prefix%'` from one index, whatever the collation.
  await sql`create unique index njit_students_no_key on njit_students (student_no text_pattern_ops)`.execute(db);
  await sql`create index njit_students_name_idx on njit_students (name text_pattern_ops)`.execute(db);
  await sql`create index njit_students_pinyin_idx on njit_students (name_pinyin text_pattern_ops)`.execute(db);
  await sql`create index njit_students_initials_idx on njit_students (name_initials text_pattern_ops)`.execute(db);
  // Filters: college -> major -> grade -> status narrow in that order; class alone is its own index.
  await sql`create index njit_students_org_idx on njit_students (college, major, grade, status)`.execute(db);
  await sql`create index njit_students_class_idx on njit_students (class_name)`.execute(db);
  await sql`create index njit_students_grade_idx on njit_students (grade, status)`.execute(db);

  await db.schema
    .createTable('njit_import_staging')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    .addColumn('rejected_rows', 'integer', (c) => c.notNull())
    .addColumn('rows', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('njit_imports')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'integer', (c) => c.notNull())
    .addColumn('inserted', 'integer', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .addColumn('rejected', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('njit_imports_created_idx').on('njit_imports').column('created_at').execute();

  await db.schema
    .createTable('njit_audit')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('criteria', 'jsonb')
    .addColumn('result_count', 'integer')
    .addColumn('record_ids', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('njit_audit_created_idx').on('njit_audit').column('created_at').execute();
  await db.schema.createIndex('njit_audit_user_idx').on('njit_audit').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('njit_audit').execute();
  await db.schema.dropTable('njit_imports').execute();
  await db.schema.dropTable('njit_import_staging').execute();
  await db.schema.dropTable('njit_students').execute();
}
