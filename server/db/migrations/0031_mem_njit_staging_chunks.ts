/**
 * A staged roster import keeps its valid rows in chunks (njit_import_staging_chunks, a JSON array of up
 * to 2,000 rows each) instead of one JSON value of the whole file: the preview stores them one chunk at a
 * time as it reads them back from the worker's spool, and neither the server nor the database ever holds
 * a whole 100,000-row roster as one value. Pending previews are dropped (they last 30 minutes anyway).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from njit_import_staging`.execute(db);
  await db.schema
    .createTable('njit_import_staging_chunks')
    .addColumn('import_id', 'text', (c) => c.notNull().references('njit_import_staging.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('rows', 'jsonb', (c) => c.notNull())
    .addPrimaryKeyConstraint('njit_import_staging_chunks_pkey', ['import_id', 'seq'])
    .execute();
  await db.schema.alterTable('njit_import_staging').dropColumn('rows').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from njit_import_staging`.execute(db);
  await db.schema
    .alterTable('njit_import_staging')
    .addColumn('rows', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema.dropTable('njit_import_staging_chunks').execute();
}
