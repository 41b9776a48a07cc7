/**
 * UMS: the technical detail of a failed attempt (Node's error code and message, or the start of a
 * non-JSON answer) in its own column, so errmsg can say in Chinese what went wrong.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_attempts').addColumn('detail', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_attempts').dropColumn('detail').execute();
}
