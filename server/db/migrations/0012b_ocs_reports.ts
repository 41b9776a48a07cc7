/**
 * OCS: users report wrong answers, administrators review them.
 *
 * - ocs_reports: one report per answered query of the user (the answer they got, the answer they
 *   propose, why), its weight when made (falls with the reporter's rejected reports), and its outcome.
 * - ocs_question_history: every change review made to a bank question (who, what, when, why).
 * - A refund for a query is booked at most once (ocs_ledger_refund_once): accepting a correction twice,
 *   or two administrators accepting at once, cannot pay a reporter twice.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ocs_reports')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('query_id', 'bigint', (c) => c.notNull().unique().references('ocs_queries.id').onDelete('cascade'))
    .addColumn('question_id', 'bigint', (c) => c.references('ocs_questions.id').onDelete('set null'))
    // The answer the user was given (as the query recorded it) and the one they believe is right.
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('proposed', 'jsonb')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('weight', 'real', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'accepted', 'rejected')`),
    )
    // The question the report was made on, when a merge moved it to another.
    .addColumn('merged_from', 'bigint')
    .addColumn('resolved_by', 'integer')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution', 'text')
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('ocs_reports_question_idx')
    .on('ocs_reports')
    .columns(['question_id', 'status'])
    .execute();
  await db.schema.createIndex('ocs_reports_user_idx').on('ocs_reports').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('ocs_question_history')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    // No foreign key: the history of a question outlives a merge or a deletion.
    .addColumn('question_id', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('ocs_question_history_question_idx')
    .on('ocs_question_history')
    .columns(['question_id', 'id'])
    .execute();

  await sql`create unique index ocs_ledger_refund_once on ocs_ledger (query_id)
    where kind = 'refund' and query_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists ocs_ledger_refund_once`.execute(db);
  await db.schema.dropTable('ocs_question_history').ifExists().execute();
  await db.schema.dropTable('ocs_reports').ifExists().execute();
}
