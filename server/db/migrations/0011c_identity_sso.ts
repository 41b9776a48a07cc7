/**
 * Campus single sign-on: CAS and OIDC identities linked to accounts.
 *
 * - user_identities: (provider, subject) -> user; a provider's subject is linked to one account.
 * - sso_states: a sign-in or link the portal started with an identity server (the `state` it sent, the
 *   PKCE verifier sealed, the nonce, where to go afterwards), and an identity that came back unlinked
 *   and waits for its user to link or create an account. The browser holds the random id in a cookie.
 * - users.password_login: administrators can turn the local password off for SSO-only users.
 * - sessions / login_challenges .sso_provider, .sso_session_hash: the CAS service ticket a session came
 *   from (hashed), so a CAS single-logout request ends exactly that session.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('password_login', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('cas', 'oidc')`))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('email', 'text')
    .addColumn('attributes', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_login_at', 'timestamptz')
    .addUniqueConstraint('user_identities_provider_subject_key', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('sso_states')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('login', 'link', 'pending')`))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('redirect', 'text', (c) => c.notNull())
    .addColumn('code_verifier_enc', 'text')
    .addColumn('nonce', 'text')
    .addColumn('identity', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  for (const table of ['sessions', 'login_challenges']) {
    await db.schema.alterTable(table).addColumn('sso_provider', 'text').execute();
    await db.schema.alterTable(table).addColumn('sso_session_hash', 'text').execute();
  }
  await db.schema.createIndex('sessions_sso_session_idx').on('sessions').column('sso_session_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sessions_sso_session_idx').execute();
  for (const table of ['login_challenges', 'sessions']) {
    await db.schema.alterTable(table).dropColumn('sso_session_hash').execute();
    await db.schema.alterTable(table).dropColumn('sso_provider').execute();
  }
  await db.schema.dropTable('sso_states').execute();
  await db.schema.dropTable('user_identities').execute();
  await db.schema.alterTable('users').dropColumn('password_login').execute();
}
