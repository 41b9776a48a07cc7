/**
 * UMS: a claimed message carries the claim's id. The worker that claimed it checks the id, in the
 * transaction that reserves its attempt (and restarts the lease for it), and again when it records the
 * outcome, so a worker whose lease ran out neither sends nor records over the worker that took over.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_messages').addColumn('claim_id', 'uuid').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_messages').dropColumn('claim_id').execute();
}
