/**
 * UMS: an e-mail channel's address receives nothing until its owner agreed, by opening the link of a
 * confirmation mail (`confirmed_at`). Every confirmation mail is kept (only its link's hash): the links
 * that still work, and how many new addresses a user had mailed today (a cap that holds across
 * instances). E-mail channels made before this stay unconfirmed until their owners confirm: their
 * addresses never agreed to anything.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ums_channels').addColumn('confirmed_at', 'timestamptz').execute();
  await db.schema
    .createTable('ums_email_confirmations')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('ums_channels.id').onDelete('cascade'))
    /** sha256 of the lower-cased address: which address was mailed, without keeping it twice. */
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('ums_email_confirmations_user_idx')
    .on('ums_email_confirmations')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('ums_email_confirmations_channel_idx')
    .on('ums_email_confirmations')
    .columns(['channel_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ums_email_confirmations').execute();
  await db.schema.alterTable('ums_channels').dropColumn('confirmed_at').execute();
}
