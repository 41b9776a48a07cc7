import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ums_channels')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('webhook_enc', 'text', (c) => c.notNull())
    .addColumn('webhook_masked', 'text', (c) => c.notNull())
    .addColumn('secret_enc', 'text')
    .addColumn('secret_masked', 'text')
    .addColumn('keyword', 'text')
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('throttled_until', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('last_error_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute();
  await sql`create unique index ums_channels_default_key on ums_channels (user_id) where is_default`.execute(db);
  await db.schema.createIndex('ums_channels_user_idx').on('ums_channels').column('user_id').execute();

  await db.schema
    .createTable('ums_messages')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.references('ums_channels.id').onDelete('set null'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('extra', 'jsonb')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('queued', 'sending', 'retrying', 'delivered', 'failed', 'cancelled')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('send_at', 'timestamptz')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  // The worker's claim query: due messages in order.
  await sql`create index ums_messages_due_idx on ums_messages (next_attempt_at) where status in ('queued', 'retrying')`.execute(
    db,
  );
  await sql`create index ums_messages_stuck_idx on ums_messages (locked_until) where status = 'sending'`.execute(db);
  await db.schema.createIndex('ums_messages_user_idx').on('ums_messages').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('ums_messages_created_idx').on('ums_messages').column('created_at').execute();

  await db.schema
    .createTable('ums_attempts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('message_id', 'bigint', (c) => c.notNull().references('ums_messages.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer')
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('errcode', 'integer')
    .addColumn('errmsg', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ums_attempts_message_idx').on('ums_attempts').column('message_id').execute();
  await db.schema.createIndex('ums_attempts_channel_idx').on('ums_attempts').columns(['channel_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ums_attempts').execute();
  await db.schema.dropTable('ums_messages').execute();
  await db.schema.dropTable('ums_channels').execute();
}
