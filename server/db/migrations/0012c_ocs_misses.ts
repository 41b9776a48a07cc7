/**
 * OCS: the 未收录 queue. Every question that found no answer is kept once per identity
 * (normalized title, type and option set, as the bank keys questions), with how often and when it was
 * asked, until an administrator answers it (it becomes a verified bank entry) or dismisses it.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ocs_misses')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('title_hash', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('options_hash', 'text', (c) => c.notNull())
    .addColumn('norm_title', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('options', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('first_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('open')
        .check(sql`status in ('open', 'answered', 'dismissed')`),
    )
    // The AI's suggestion, kept for the administrator to accept or change.
    .addColumn('draft', 'jsonb')
    .addColumn('draft_model', 'text')
    .addColumn('question_id', 'bigint')
    .addColumn('resolved_by', 'integer')
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  await sql`create unique index ocs_misses_identity_key on ocs_misses (title_hash, type, options_hash)`.execute(db);
  await sql`create index ocs_misses_queue_idx on ocs_misses (status, count desc, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ocs_misses').ifExists().execute();
}
