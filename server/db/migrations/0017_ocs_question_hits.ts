/**
 * OCS: hit counts move out of ocs_questions into a narrow table of their own, ocs_question_hits.
 *
 * Counting a hit updated the question's row, and a bulk-loaded bank's pages are full, so each update
 * wrote a new version of the whole row elsewhere and an entry in every index of the table. On the
 * bench's 1M bank the dead versions brought the maintenance job (server/db/maintenance.ts) to
 * `vacuum ocs_questions` within minutes of load: 4.4 s in one statement, during which the embedded
 * database answered nothing, and `analyze ocs_questions` (1.2 s) as often. Here a hit rewrites a
 * 40-byte row; with pages left 30% free the new version stays on its page (a HOT update: no index
 * entry, nothing for VACUUM's index pass), and what VACUUM and ANALYZE have to read is this table.
 * A question's count goes with it (on delete cascade); no index on hits, or every update would need one.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table ocs_question_hits (
      question_id bigint primary key references ocs_questions (id) on delete cascade,
      hits integer not null check (hits > 0)
    ) with (fillfactor = 70)`.execute(db);
  await sql`insert into ocs_question_hits (question_id, hits)
            select id, hit_count from ocs_questions where hit_count > 0`.execute(db);
  await sql`alter table ocs_questions drop column hit_count`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ocs_questions add column hit_count integer not null default 0`.execute(db);
  await sql`update ocs_questions q set hit_count = h.hits from ocs_question_hits h where h.question_id = q.id`.execute(
    db,
  );
  await sql`drop table ocs_question_hits`.execute(db);
}
