/**
 * UMS: a user's scheduled messages still waiting, found without reading all their messages: a send is
 * refused when it would leave more than UMS_USER_MAX_SCHEDULED of them.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index ums_messages_scheduled_idx on ums_messages (user_id, send_at)
            where status in ('queued', 'retrying') and send_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ums_messages_scheduled_idx').execute();
}
