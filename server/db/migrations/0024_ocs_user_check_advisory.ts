/**
 * OCS: the user check of the query log's and the ledger's rows (migration 0023) holds the user with a
 * shared advisory lock instead of a KEY SHARE lock on the user's row (issue 14).
 *
 * A row lock is a write: it stamps the user's row, dirties its page and goes to the WAL, for every
 * user of every charge batch, though the user's row never changes. On the embedded database it was
 * most of the check's cost. Batches of 20 charges of 60 users, taking turns on one database: 6% and 9%
 * less CPU per charge with the advisory lock below (two runs: 174 against 185 µs, 151 against 166 µs).
 *
 * What the row lock guaranteed stays, with a lock that lives only in the lock table:
 * - the check takes pg_advisory_xact_lock_shared(hashtext('ocs_user_rows'), user) for each distinct user
 *   of the statement's rows, in user order; then, in a statement of its own, whose snapshot is taken
 *   once the locks are granted (read committed), it counts the users that are not there (23503 if any);
 * - deleting a user first takes the same lock exclusively (before delete, so before anything else of
 *   the delete: the wallet's cascade, 0023's deletion of the rows): it waits for every transaction that
 *   wrote rows for the user to end, and 0023's after-delete trigger then sees their rows and deletes
 *   them; a transaction that writes rows for the user meanwhile waits for the delete to end, then finds
 *   the user gone;
 * - under repeatable read or serializable a statement sees the transaction's snapshot, taken before its
 *   lock was granted, so there the check keeps 0023's row lock (a user deleted since the snapshot then
 *   fails the transaction with a serialization failure, as before).
 */
import { sql, type Kysely } from 'kysely';

/** 0023's check: each distinct user locked (KEY SHARE) and counted when not there, in one statement. */
const ROW_LOCK_CHECK = sql`
      select count(*) into missing
        from (select distinct n.user_id from new_rows n) n
        left join lateral (select u.id from users u where u.id = n.user_id for key share) u on true
       where u.id is null;`;

const MISSING = sql`
      if missing > 0 then
        raise foreign_key_violation
          using message = format('insert into %I: a user_id is not in users', tg_table_name);
      end if;
      return null;`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create or replace function ocs_rows_user_exists() returns trigger language plpgsql as $$
    declare
      missing int;
    begin
      if current_setting('transaction_isolation') <> 'read committed' then
        ${ROW_LOCK_CHECK}
      else
        perform pg_advisory_xact_lock_shared(hashtext('ocs_user_rows'), n.user_id)
           from (select distinct user_id from new_rows order by user_id) n;
        select count(*) into missing
          from (select distinct user_id from new_rows) n
         where not exists (select 1 from users u where u.id = n.user_id);
      end if;
      ${MISSING}
    end $$`.execute(db);
  await sql`create function ocs_user_deleting() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(hashtext('ocs_user_rows'), old.id);
      return old;
    end $$`.execute(db);
  await sql`create trigger users_ocs_rows_deleting before delete on users
      for each row execute function ocs_user_deleting()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger users_ocs_rows_deleting on users`.execute(db);
  await sql`drop function ocs_user_deleting()`.execute(db);
  await sql`create or replace function ocs_rows_user_exists() returns trigger language plpgsql as $$
    declare
      missing int;
    begin
      ${ROW_LOCK_CHECK}
      ${MISSING}
    end $$`.execute(db);
}
