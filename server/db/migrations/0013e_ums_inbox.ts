/**
 * The UMS inbox: every message is readable in 消息查询 with read/unread state, so nothing is
 * lost if every channel is down. `read_at` is set when its owner opens it (or marks all read).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_messages').addColumn('read_at', 'timestamptz').execute();
  // Messages written before the inbox existed were seen where they were sent: read.
  await sql`update ums_messages set read_at = created_at`.execute(db);
  await sql`create index ums_messages_unread_idx on ums_messages (user_id) where read_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ums_messages_unread_idx').execute();
  await db.schema.alterTable('ums_messages').dropColumn('read_at').execute();
}
