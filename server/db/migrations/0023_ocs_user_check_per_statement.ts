/**
 * OCS: the query log's and the ledger's rows are checked against users once per statement instead of
 * once per row (issue 14).
 *
 * Both tables had a foreign key to users (migration 0006). Postgres checks a foreign key row by row: for
 * every inserted row an after-trigger runs its own look-up of the user (with a KEY SHARE lock). A batch of
 * 20 charges writes 20 query rows and up to 20 ledger rows, so up to 40 such look-ups of at most 20
 * users. On the embedded database, taking turns on one database, a batch of 20 charges of different
 * users took 8–17% less CPU per charge with the check below than with the keys (three runs); a batch of
 * one costs about the same either way.
 *
 * The keys are replaced by triggers that keep what they guaranteed:
 * - after every insert, one statement-level check locks the rows' distinct users (KEY SHARE, as the
 *   key did: a concurrent delete of one of them waits for this transaction) and fails with the foreign
 *   key's error (23503) when one of them is not there: the statement and its transaction change nothing;
 * - a row's user_id cannot be changed (nothing changes it; the key would have checked the new one);
 * - deleting a user deletes their query and ledger rows, after the user's row is gone (as ON DELETE
 *   CASCADE did: a transaction that wrote rows for the user before finishes first, and its rows go too).
 */
import { sql, type Kysely } from 'kysely';

const TABLES = ['ocs_queries', 'ocs_ledger'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function ocs_rows_user_exists() returns trigger language plpgsql as $$
    declare
      missing int;
    begin
      -- One statement: each distinct user locked (KEY SHARE) and counted when not there.
      select count(*) into missing
        from (select distinct n.user_id from new_rows n) n
        left join lateral (select u.id from users u where u.id = n.user_id for key share) u on true
       where u.id is null;
      if missing > 0 then
        raise foreign_key_violation
          using message = format('insert into %I: a user_id is not in users', tg_table_name);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function ocs_rows_user_fixed() returns trigger language plpgsql as $$
    begin
      raise foreign_key_violation using message = format('%I: a row''s user_id cannot change', tg_table_name);
    end $$`.execute(db);
  await sql`create function ocs_user_deleted() returns trigger language plpgsql as $$
    begin
      delete from ocs_queries where user_id = old.id;
      delete from ocs_ledger where user_id = old.id;
      return null;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.raw(`${table}_user_id_fkey`)}`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_user_exists`)} after insert on ${sql.table(table)}
        referencing new table as new_rows for each statement execute function ocs_rows_user_exists()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_user_fixed`)} before update of user_id on ${sql.table(table)}
        for each row when (new.user_id is distinct from old.user_id) execute function ocs_rows_user_fixed()`.execute(
      db,
    );
  }
  await sql`create trigger users_ocs_rows_deleted after delete on users
      for each row execute function ocs_user_deleted()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_ocs_rows_deleted on users`.execute(db);
  for (const table of TABLES) {
    await sql`drop trigger ${sql.raw(`${table}_user_exists`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.raw(`${table}_user_fixed`)} on ${sql.table(table)}`.execute(db);
    await sql`alter table ${sql.table(table)} add constraint ${sql.raw(`${table}_user_id_fkey`)}
        foreign key (user_id) references users (id) on delete cascade`.execute(db);
  }
  await sql`drop function ocs_user_deleted()`.execute(db);
  await sql`drop function ocs_rows_user_fixed()`.execute(db);
  await sql`drop function ocs_rows_user_exists()`.execute(db);
}
