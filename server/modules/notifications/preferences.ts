/**
 * Which kinds of notification a user receives: each kind is on until they turn it off. A kind turned off
 * is not stored for them at all (service.ts reads these rows in the statement that would store it).
 * Administrators' kinds are offered to administrators only.
 */
import type { Kysely } from 'kysely';
import {
  ADMIN_NOTIFICATION_KINDS,
  NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationPreferencesBody,
} from '../../../src/contract';
import type { DB } from '../../db/schema';

export async function getPreferences(
  db: Kysely<DB>,
  user: { id: number; roles: readonly string[] },
): Promise<NotificationPreferences> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['kind', 'enabled'])
    .where('user_id', '=', user.id)
    .execute();
  const enabled = new Map(rows.map((r) => [r.kind, r.enabled]));
  const admin = user.roles.includes('admin');
  const kinds = (Object.keys(NOTIFICATION_KINDS) as NotificationKind[]).filter(
    (k) => admin || !ADMIN_NOTIFICATION_KINDS.includes(k),
  );
  return { kinds: kinds.map((kind) => ({ kind, enabled: enabled.get(kind) ?? true })) };
}

/** One statement: the named kinds are set, the others keep theirs. */
export async function putPreferences(
  db: Kysely<DB>,
  user: { id: number; roles: readonly string[] },
  body: NotificationPreferencesBody,
): Promise<NotificationPreferences> {
  const rows = Object.entries(body.enabled).map(([kind, enabled]) => ({ user_id: user.id, kind, enabled: enabled! }));
  if (rows.length > 0) {
    await db
      .insertInto('notification_preferences')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ enabled: eb.ref('excluded.enabled') })),
      )
      .execute();
  }
  return getPreferences(db, user);
}
