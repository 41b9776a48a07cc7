/**
 * The header's search finds bank questions by the start of their matching key (norm_title): a
 * text_pattern_ops index answers that prefix as a range and hands the matches over in order, so a
 * search reads a handful of rows at a million questions.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index ocs_questions_norm_title_prefix_idx on ocs_questions (norm_title text_pattern_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index ocs_questions_norm_title_prefix_idx`.execute(db);
}
