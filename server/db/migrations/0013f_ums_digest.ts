/**
 * UMS overflow digest: a channel may merge the messages its pacing would hold longer than
 * `digest_after_seconds` into one markdown digest. A merged message waits in status `merged`, pointing
 * at its digest (`digest_id`), and takes the digest's final outcome.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ums_messages drop constraint ums_messages_status_check`.execute(db);
  await sql`alter table ums_messages add constraint ums_messages_status_check check (
              status in ('queued', 'sending', 'retrying', 'merged', 'delivered', 'failed', 'cancelled'))`.execute(db);
  await db.schema
    .alterTable('ums_messages')
    .addColumn('digest_id', 'bigint', (c) => c.references('ums_messages.id').onDelete('set null'))
    .execute();
  await sql`create index ums_messages_digest_idx on ums_messages (digest_id) where digest_id is not null`.execute(db);
  await db.schema
    .alterTable('ums_channels')
    .addColumn('digest_after_seconds', 'integer', (c) => c.check(sql`digest_after_seconds between 30 and 3600`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_channels').dropColumn('digest_after_seconds').execute();
  await db.schema.dropIndex('ums_messages_digest_idx').execute();
  await db.schema.alterTable('ums_messages').dropColumn('digest_id').execute();
  await sql`update ums_messages set status = 'queued' where status = 'merged'`.execute(db);
  await sql`alter table ums_messages drop constraint ums_messages_status_check`.execute(db);
  await sql`alter table ums_messages add constraint ums_messages_status_check check (
              status in ('queued', 'sending', 'retrying', 'delivered', 'failed', 'cancelled'))`.execute(db);
}
