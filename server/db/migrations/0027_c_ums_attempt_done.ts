/**
 * UMS: when an attempt was answered (`done_at`). A robot counts a message when it arrives, which is
 * after the attempt started and before it was answered: pacing counts an attempt from its answer, so a
 * message that left late never makes a robot see more than its limit within its window.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_attempts').addColumn('done_at', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_attempts').dropColumn('done_at').execute();
}
