/**
 * Which kinds of notification a user receives, and which are forwarded to a UMS channel of theirs: each
 * kind is on and not forwarded until they change it. A kind turned off is not stored for them at all,
 * and a forwarded one is queued on their channel in the same transaction that stores it (service.ts
 * reads these rows as it stores). Administrators' kinds are offered to administrators only; a failed
 * UMS delivery is never forwarded.
 */
import type { Kysely } from 'kysely';
import {
  ADMIN_NOTIFICATION_KINDS,
  NOTIFICATION_KINDS,
  UNFORWARDED_NOTIFICATION_KINDS,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationPreferencesBody,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest } from '../../errors';
import { forwardTarget } from '../ums';

type User = { id: number; roles: readonly string[] };

export async function getPreferences(db: Kysely<DB>, user: User): Promise<NotificationPreferences> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['kind', 'enabled', 'forward'])
    .where('user_id', '=', user.id)
    .execute();
  const set = new Map(rows.map((r) => [r.kind, r]));
  const admin = user.roles.includes('admin');
  const kinds = (Object.keys(NOTIFICATION_KINDS) as NotificationKind[]).filter(
    (k) => admin || !ADMIN_NOTIFICATION_KINDS.includes(k),
  );
  const forwarding = await db
    .selectFrom('notification_forwarding')
    .select('channel_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return {
    kinds: kinds.map((kind) => ({
      kind,
      enabled: set.get(kind)?.enabled ?? true,
      forward: set.get(kind)?.forward ?? false,
    })),
    forwardChannelId: forwarding?.channel_id ?? null,
  };
}

/** One transaction: the named kinds and the channel are set, the rest keeps its settings. */
export async function putPreferences(
  db: Kysely<DB>,
  user: User,
  body: NotificationPreferencesBody,
): Promise<NotificationPreferences> {
  const refused = Object.entries(body.forward ?? {}).find(
    ([kind, on]) => on && UNFORWARDED_NOTIFICATION_KINDS.includes(kind as NotificationKind),
  );
  if (refused) {
    const message = `「${NOTIFICATION_KINDS[refused[0] as NotificationKind]}」的通知不能转发到推送渠道`;
    throw badRequest(message, { [`forward.${refused[0]}`]: [message] });
  }
  await db.transaction().execute(async (trx) => {
    if (body.forwardChannelId) {
      const target = await forwardTarget(trx, user.id, body.forwardChannelId);
      if (target !== 'ok') {
        const message =
          target === 'missing' ? '渠道不存在' : '该渠道的邮箱尚未确认：收件人打开确认邮件中的链接后才能向它转发';
        throw badRequest(message, { forwardChannelId: [message] });
      }
    }
    if (body.forwardChannelId !== undefined) {
      await trx
        .insertInto('notification_forwarding')
        .values({ user_id: user.id, channel_id: body.forwardChannelId })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ channel_id: body.forwardChannelId }))
        .execute();
    }
    // In one order, so concurrent saves of one user lock the rows alike and never deadlock.
    const kinds = [...new Set([...Object.keys(body.enabled ?? {}), ...Object.keys(body.forward ?? {})])].sort();
    for (const kind of kinds) {
      const values = {
        ...(body.enabled && kind in body.enabled ? { enabled: body.enabled[kind as NotificationKind]! } : {}),
        ...(body.forward && kind in body.forward ? { forward: body.forward[kind as NotificationKind]! } : {}),
      };
      await trx
        .insertInto('notification_preferences')
        .values({ user_id: user.id, kind, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet(values))
        .execute();
    }
  });
  return getPreferences(db, user);
}
