/** A user's preferences for the shell: read (the defaults until saved) and replaced whole. */
import type { Kysely } from 'kysely';
import { DEFAULT_PREFERENCES, PRIMARY_COLORS, type Preferences } from '../../../src/contract';
import type { DB } from '../../db/schema';

export async function getPreferences(db: Kysely<DB>, userId: number): Promise<Preferences> {
  const row = await db.selectFrom('user_preferences').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return DEFAULT_PREFERENCES;
  return {
    dark: row.dark,
    compact: row.compact,
    // A colour no longer offered falls back to the default rather than failing the answer's schema.
    primaryColor:
      row.primary_color in PRIMARY_COLORS
        ? (row.primary_color as Preferences['primaryColor'])
        : DEFAULT_PREFERENCES.primaryColor,
    siderCollapsed: row.sider_collapsed,
  };
}

/** One statement: concurrent saves of one user each leave a whole set (the last one wins). */
export async function putPreferences(db: Kysely<DB>, userId: number, prefs: Preferences): Promise<Preferences> {
  const values = {
    dark: prefs.dark,
    compact: prefs.compact,
    primary_color: prefs.primaryColor,
    sider_collapsed: prefs.siderCollapsed,
  };
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
  return getPreferences(db, userId);
}
