/**
 * UMS channel kinds: a channel is a DingTalk, WeCom or Feishu robot, a generic webhook or an
 * e-mail address. Existing channels become `dingtalk`. `config` holds a kind's settings that are not
 * secret (a webhook's method, body template and success rule), `config_enc` the secret ones (a
 * webhook's request headers) under the SecretBox. Attempts get the key their pacing is counted by
 * (`channel:<id>` for robots and webhooks, a hash of the address for e-mail), backfilled for the old rows.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('ums_channels')
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('dingtalk')
        .check(sql`kind in ('dingtalk', 'wecom', 'feishu', 'webhook', 'email')`),
    )
    .execute();
  await db.schema.alterTable('ums_channels').addColumn('config', 'jsonb').execute();
  await db.schema.alterTable('ums_channels').addColumn('config_enc', 'text').execute();

  await db.schema.alterTable('ums_attempts').addColumn('pace_key', 'text').execute();
  await sql`update ums_attempts set pace_key = 'channel:' || channel_id where channel_id is not null`.execute(db);
  await db.schema.createIndex('ums_attempts_pace_idx').on('ums_attempts').columns(['pace_key', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ums_attempts_pace_idx').execute();
  await db.schema.alterTable('ums_attempts').dropColumn('pace_key').execute();
  await db.schema.alterTable('ums_channels').dropColumn('config_enc').execute();
  await db.schema.alterTable('ums_channels').dropColumn('config').execute();
  await db.schema.alterTable('ums_channels').dropColumn('kind').execute();
}
