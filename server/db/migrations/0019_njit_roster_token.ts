/**
 * NJIT: njit_roster holds one row whose token changes with every statement that writes njit_students
 * (a statement-level trigger; insert, update, delete and truncate alike).
 *
 * A search counts its matches (up to NJIT_MAX_TOTAL + 1) on every call, and paging through a filter
 * that matches thousands counted them again for each page: 0.4 ms of the bench's 1.3 ms filter search,
 * 6 ms for a whole college. An instance now keeps the totals it counted with the token they were
 * counted under, and a search counts again only when the token it reads, in the same snapshot as its
 * page, is another (server/modules/njit/service.ts). A random token rather than a counter: a database
 * restored from a backup, or another installation's, can never show a token some cache already holds
 * for different students.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table njit_roster (
      singleton boolean primary key default true check (singleton),
      token uuid not null default gen_random_uuid()
    )`.execute(db);
  await sql`insert into njit_roster default values`.execute(db);
  await sql`create function njit_roster_changed() returns trigger language plpgsql as $$
    begin
      update njit_roster set token = gen_random_uuid();
      return null;
    end $$`.execute(db);
  await sql`create trigger njit_roster_changed
      after insert or update or delete or truncate on njit_students
      for each statement execute function njit_roster_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger njit_roster_changed on njit_students`.execute(db);
  await sql`drop function njit_roster_changed()`.execute(db);
  await sql`drop table njit_roster`.execute(db);
}
