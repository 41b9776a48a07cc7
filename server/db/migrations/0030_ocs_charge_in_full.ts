/**
 * OCS: one charge rule, written once in full, and the query log's and the ledger's users kept by
 * foreign keys again.
 *
 * - ocs_charge_many() is (re)created from server/db/functions/ocs_charge_many.sql, the one readable
 *   definition; a single answer is charged by it too, so the older ocs_charge() goes. Earlier
 *   migrations edited the stored function's text; those edits are part of this definition.
 * - ocs_queries.user_id and ocs_ledger.user_id reference users again (on delete cascade), in place of
 *   the statement triggers, the advisory locks and the session setting of 0023–0025, which are dropped
 *   where a database has them. A charge for a user deleted meanwhile fails with the key's error (23503)
 *   and writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';

const TABLES = ['ocs_queries', 'ocs_ledger'] as const;

/** The function's current definition (server/db/functions/): what this migration creates. */
export const functionDefinition = (name: string) =>
  fs.readFileSync(path.join(__dirname, '..', 'functions', `${name}.sql`), 'utf8');

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop trigger if exists ${sql.raw(`${table}_user_exists`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger if exists ${sql.raw(`${table}_user_fixed`)} on ${sql.table(table)}`.execute(db);
    // A database that never ran 0023 still has the key: it is made again, the same.
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.raw(`${table}_user_id_fkey`)}`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.raw(`${table}_user_id_fkey`)}
        foreign key (user_id) references users (id) on delete cascade`.execute(db);
  }
  await sql`drop trigger if exists users_ocs_rows_deleted on users`.execute(db);
  await sql`drop trigger if exists users_ocs_rows_deleting on users`.execute(db);
  for (const fn of ['ocs_user_deleted', 'ocs_user_deleting', 'ocs_rows_user_exists', 'ocs_rows_user_fixed']) {
    await sql`drop function if exists ${sql.raw(fn)}()`.execute(db);
  }
  await sql`drop function if exists ocs_charge(int, int, int, text, text, text, text, bigint, int, text, text, real, boolean)`.execute(
    db,
  );
  const many =
    'int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[], text[], real[], int[], boolean[]';
  await sql`drop function if exists ${sql.raw(`ocs_charge_many(${many})`)}`.execute(db);
  await sql`drop function if exists ${sql.raw(`ocs_charge_many(${many}, bigint[])`)}`.execute(db);
  await sql.raw(functionDefinition('ocs_charge_many')).execute(db);
}
