/**
 * OCS: the bank's generation, so the charge of an answer read from memory checks one row per batch
 * instead of one question per answer.
 *
 * ocs_bank_generation holds one number, raised once by every transaction that updates or deletes bank
 * rows (or truncates the table; an INSERT of new rows leaves it as it is: a new row changes no answer
 * memory holds). It is raised inside the writing transaction, so it becomes visible exactly when the
 * change does: a snapshot that sees generation g sees every change of the bank up to g and none after.
 *
 * Memory labels each row with the generation of the snapshot it was read in (or last confirmed in).
 * ocs_charge_many() takes those labels: an element whose label is the generation now is as it was
 * read, and the look at its question is skipped; it returns the generation it saw, for the caller to
 * relabel the elements that passed: the check runs after the generation was read, so a row it found
 * unchanged was at its version at that generation (had it changed since, the generation would have
 * moved on, and no later statement would find the label current). Its definition is in
 * server/db/functions/ocs_charge_many.sql (migration 0030); this migration once edited the stored text
 * of the function, and now only creates the generation.
 *
 * The generation row is a hot row, so it is raised at the very end of the transaction (a deferred
 * trigger, which runs at commit): a writer holds it only while committing, and takes no other lock
 * after it — raised at the changing statement instead, a transaction that went on to change another
 * question could deadlock with one holding that question and waiting for the generation.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table ocs_bank_generation (
      id boolean primary key default true check (id),
      n bigint not null
    )`.execute(db);
  await sql`insert into ocs_bank_generation (id, n) values (true, 1)`.execute(db);
  // Once per transaction, at its commit: the first changed or removed row of it raises the generation.
  await sql`create function ocs_bank_changed() returns trigger language plpgsql as $$
    begin
      if coalesce(current_setting('portal.ocs_bank_changed', true), '') <> 'on' then
        perform set_config('portal.ocs_bank_changed', 'on', true);
        update ocs_bank_generation set n = n + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger ocs_questions_generation after update or delete on ocs_questions
      deferrable initially deferred for each row execute function ocs_bank_changed()`.execute(db);
  await sql`create trigger ocs_questions_generation_truncate after truncate on ocs_questions
      for each statement execute function ocs_bank_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger ocs_questions_generation on ocs_questions`.execute(db);
  await sql`drop trigger ocs_questions_generation_truncate on ocs_questions`.execute(db);
  await sql`drop function ocs_bank_changed()`.execute(db);
  await sql`drop table ocs_bank_generation`.execute(db);
}
