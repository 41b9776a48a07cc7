/**
 * Two-factor sign-in.
 *
 * - user_two_factor: a user's TOTP secret (sealed by the SecretBox), the one being set up until its first
 *   code confirms it, and the last time step accepted (a code works once).
 * - user_recovery_codes: ten single-use codes per user, only their hashes.
 * - login_challenges: a password (or an SSO login) that was right, waiting for the second factor. The
 *   browser holds the random id in a cookie; no session exists until the code is right.
 * - login_devices.trusted_until: "trust this browser for 30 days" skips the code on that browser.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_two_factor')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_enc', 'text')
    .addColumn('enabled_at', 'timestamptz')
    .addColumn('pending_secret_enc', 'text')
    .addColumn('pending_created_at', 'timestamptz')
    .addColumn('last_step', 'bigint')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz')
    .addUniqueConstraint('user_recovery_codes_user_code_key', ['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('login_challenges')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('remember', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_challenges_user_idx').on('login_challenges').column('user_id').execute();

  await db.schema.alterTable('login_devices').addColumn('trusted_until', 'timestamptz').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('login_devices').dropColumn('trusted_until').execute();
  await db.schema.dropTable('login_challenges').execute();
  await db.schema.dropTable('user_recovery_codes').execute();
  await db.schema.dropTable('user_two_factor').execute();
}
