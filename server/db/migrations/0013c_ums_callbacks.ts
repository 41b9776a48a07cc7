/**
 * UMS delivery callbacks: a message may carry a callback URL that the portal POSTs its final
 * outcome to, once, signed with the sender's callback secret (one per user, sealed by the SecretBox,
 * rotatable) and retried like a message. The callback's own state lives on the message.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ums_callback_secrets')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.alterTable('ums_messages').addColumn('callback_url', 'text').execute();
  await db.schema
    .alterTable('ums_messages')
    .addColumn('callback_status', 'text', (c) => c.check(sql`callback_status in ('pending', 'sent', 'failed')`))
    .execute();
  await db.schema
    .alterTable('ums_messages')
    .addColumn('callback_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ums_messages').addColumn('callback_next_at', 'timestamptz').execute();
  await db.schema.alterTable('ums_messages').addColumn('callback_error', 'text').execute();
  await db.schema.alterTable('ums_messages').addColumn('callback_sent_at', 'timestamptz').execute();
  await sql`create index ums_messages_callback_due_idx on ums_messages (callback_next_at)
            where callback_status = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ums_messages_callback_due_idx').execute();
  for (const column of [
    'callback_sent_at',
    'callback_error',
    'callback_next_at',
    'callback_attempts',
    'callback_status',
    'callback_url',
  ])
    await db.schema.alterTable('ums_messages').dropColumn(column).execute();
  await db.schema.dropTable('ums_callback_secrets').execute();
}
