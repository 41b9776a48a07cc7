/**
 * UMS: each channel keeps the key its attempts are paced under (`pace_key`: a robot's, an e-mail
 * address's, or its own `channel:<id>`), computed by the application from the decrypted address when
 * the channel is saved (and filled in at start for channels saved before). The worker finds with it
 * the messages, on any channel, that wait for the same slots, so the most urgent one takes the next.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_channels').addColumn('pace_key', 'text').execute();
  await db.schema.createIndex('ums_channels_pace_idx').on('ums_channels').column('pace_key').execute();
  // The messages of a channel that wait or are being sent, in the claim's order.
  await sql`create index ums_messages_channel_due_idx on ums_messages (channel_id, priority desc, next_attempt_at, id)
            where status in ('queued', 'retrying', 'sending')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ums_messages_channel_due_idx').execute();
  await db.schema.dropIndex('ums_channels_pace_idx').execute();
  await db.schema.alterTable('ums_channels').dropColumn('pace_key').execute();
}
