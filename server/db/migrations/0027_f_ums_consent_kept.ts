/**
 * UMS: a confirmation mail stays counted after its channel is deleted. Otherwise deleting channels
 * and adding them again would mail new addresses past the day's cap (each mail names the channel,
 * text a stranger reads); the row loses only its channel.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ums_email_confirmations
              drop constraint ums_email_confirmations_channel_id_fkey,
              alter column channel_id drop not null,
              add constraint ums_email_confirmations_channel_id_fkey
                foreign key (channel_id) references ums_channels (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from ums_email_confirmations where channel_id is null`.execute(db);
  await sql`alter table ums_email_confirmations
              drop constraint ums_email_confirmations_channel_id_fkey,
              alter column channel_id set not null,
              add constraint ums_email_confirmations_channel_id_fkey
                foreign key (channel_id) references ums_channels (id) on delete cascade`.execute(db);
}
