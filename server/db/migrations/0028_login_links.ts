/**
 * email_tokens may hold sign-in links: while an account's failed logins make unknown browsers wait,
 * the right password from such a browser earns a link mailed to the account's verified address instead
 * of a wait (server/modules/user/service.ts), so an attacker who keeps failing cannot keep the owner out.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table email_tokens drop constraint email_tokens_purpose_check`.execute(db);
  await sql`alter table email_tokens add constraint email_tokens_purpose_check
      check (purpose in ('verify', 'reset', 'login'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from email_tokens where purpose = 'login'`.execute(db);
  await sql`alter table email_tokens drop constraint email_tokens_purpose_check`.execute(db);
  await sql`alter table email_tokens add constraint email_tokens_purpose_check
      check (purpose in ('verify', 'reset'))`.execute(db);
}
