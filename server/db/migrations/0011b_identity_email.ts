/**
 * E-mail addresses and password reset by e-mail.
 *
 * - user_emails: one address per user. `email` is the verified one (a reset link goes only there);
 *   `pending_email` is a new address waiting for its verification link, while the old one keeps working.
 *   A verified address belongs to one account only.
 * - email_tokens: the links the portal mailed (verify an address, reset a password), only their hashes,
 *   each with its expiry and the moment it was used (a link works once).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_emails')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('verified_at', 'timestamptz')
    .addColumn('pending_email', 'text')
    .addColumn('pending_sent_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index user_emails_email_key on user_emails (lower(email)) where email is not null`.execute(
    db,
  );

  await db.schema
    .createTable('email_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('verify', 'reset')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('email_tokens_user_idx').on('email_tokens').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_tokens').execute();
  await db.schema.dropTable('user_emails').execute();
}
