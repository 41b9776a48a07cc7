/**
 * user_identities: CAS usernames are matched in any case (`JDOE` signs in to the account `jdoe` linked;
 * server/modules/user/identity/accounts.ts), so the sign-in lookup is by lower(subject). An index on
 * it per provider; not unique, since a CAS configured to tell case apart (CAS_CASE_SENSITIVE) may link
 * both spellings, and since two spellings may have been linked to two accounts before.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index user_identities_provider_lower_subject_idx
      on user_identities (provider, lower(subject))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index user_identities_provider_lower_subject_idx`.execute(db);
}
