/**
 * UMS routing: a message's priority (0 low, 1 normal, 2 high, 3 urgent: the claim order),
 * the client's idempotency key (one per user: a retried send returns the first message), the fan-out
 * group (every row of one send to several channels points at the first), the fallback chain (the
 * channels still to try when the current one fails for good), and per channel quiet hours (minutes
 * after midnight in PORTAL_TZ; messages wait them out unless urgent).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ums_messages')
    .addColumn('priority', 'smallint', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`priority between 0 and 3`),
    )
    .execute();
  await db.schema.alterTable('ums_messages').addColumn('idempotency_key', 'text').execute();
  await db.schema.alterTable('ums_messages').addColumn('group_id', 'bigint').execute();
  await db.schema
    .alterTable('ums_messages')
    .addColumn('fallback', sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'::integer[]`))
    .execute();
  await sql`create unique index ums_messages_idempotency_key on ums_messages (user_id, idempotency_key)
            where idempotency_key is not null`.execute(db);
  await sql`create index ums_messages_group_idx on ums_messages (group_id) where group_id is not null`.execute(db);
  // The claim takes due messages most urgent first.
  await sql`create index ums_messages_due_priority_idx on ums_messages (priority desc, next_attempt_at, id)
            where status in ('queued', 'retrying')`.execute(db);

  await db.schema.alterTable('ums_channels').addColumn('quiet_start', 'smallint').execute();
  await db.schema.alterTable('ums_channels').addColumn('quiet_end', 'smallint').execute();
  await sql`alter table ums_channels add constraint ums_channels_quiet_check check (
              (quiet_start is null and quiet_end is null)
              or (quiet_start between 0 and 1439 and quiet_end between 0 and 1439 and quiet_start <> quiet_end))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table ums_channels drop constraint ums_channels_quiet_check`.execute(db);
  await db.schema.alterTable('ums_channels').dropColumn('quiet_end').execute();
  await db.schema.alterTable('ums_channels').dropColumn('quiet_start').execute();
  await db.schema.dropIndex('ums_messages_due_priority_idx').execute();
  await db.schema.dropIndex('ums_messages_group_idx').execute();
  await db.schema.dropIndex('ums_messages_idempotency_key').execute();
  for (const column of ['fallback', 'group_id', 'idempotency_key', 'priority'])
    await db.schema.alterTable('ums_messages').dropColumn(column).execute();
}
