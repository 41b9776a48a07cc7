/**
 * The notification centre's store: other modules call `notify()` (inside the transaction of the change
 * it tells about, so a rolled-back change tells nobody) and `notifyAdmins()`; the owner lists, counts
 * and marks them read. Each new notification and each marking read is also announced on
 * LIVE_CHANNEL by `pg_notify()` in the same transaction (so only at commit, to every instance):
 * live.ts turns it into an event on the owner's open event streams. A kind its user turned off is not
 * stored; one they forward is also queued on their UMS channel, in the same transaction.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import {
  NOTIFICATION_KINDS,
  UNFORWARDED_NOTIFICATION_KINDS,
  type NotificationItem,
  type NotificationKind,
  type NotificationListQuery,
} from '../../../src/contract';
import { paginate } from '../../db/paging';
import type { DB } from '../../db/schema';
import { queueForwarded } from '../ums';

type Executor = Kysely<DB> | Transaction<DB>;

export interface NewNotification {
  kind: NotificationKind;
  title: string;
  body?: string;
  /** A path of the portal (starting with /). */
  link?: string | null;
}

/** The database channel of live delivery (live.ts listens on it on every instance). */
export const LIVE_CHANNEL = 'portal_notifications';

/**
 * What LIVE_CHANNEL carries: a new notification of user `u`, or (`read`) some of theirs marked read.
 * A title is at most TITLE_MAX characters, so a payload stays far under NOTIFY's 8000 bytes.
 */
export type LiveAnnouncement =
  { u: number; item: { id: number; kind: NotificationKind; title: string } } | { u: number; read: true };

async function announce(db: Executor, announcements: LiveAnnouncement[]): Promise<void> {
  if (announcements.length === 0) return;
  const payloads = announcements.map((a) => JSON.stringify(a));
  await sql`select pg_notify(${LIVE_CHANNEL}, p) from unnest(${payloads}::text[]) as p`.execute(db);
}

const TITLE_MAX = 200;
const BODY_MAX = 1000;

function values(n: NewNotification) {
  return {
    kind: n.kind,
    title: n.title.slice(0, TITLE_MAX),
    body: (n.body ?? '').slice(0, BODY_MAX),
    link: n.link && n.link.startsWith('/') && !n.link.startsWith('//') ? n.link : null,
  };
}

/**
 * Tells one user; with a transaction, only if it commits. Nothing is stored for a kind the user turned
 * off. `unlessUnread`: not again while an unread notification of the same kind waits (what repeats, such
 * as failures on a broken channel, is said once).
 */
export async function notify(
  db: Executor,
  userId: number,
  n: NewNotification,
  opts: { unlessUnread?: boolean } = {},
): Promise<void> {
  await tell(db, n, sql<boolean>`u.id = ${userId}`, opts.unlessUnread ?? false);
}

/**
 * Tells every active administrator who has not turned the kind off, nor an unread notification of the
 * same kind already (one "new reports waiting" until it is read, not one per report).
 */
export async function notifyAdmins(db: Executor, n: NewNotification): Promise<void> {
  await tell(db, n, sql<boolean>`'admin' = any(u.roles) and u.status = 'active'`, true);
}

/**
 * One statement: a row for each user `who` picks who has not turned the kind off (preferences.ts) and,
 * with `unlessUnread`, has no unread one of the kind; then the announcement of each row.
 */
async function tell(db: Executor, n: NewNotification, who: RawBuilder<boolean>, unlessUnread: boolean): Promise<void> {
  const v = values(n);
  const rows = await db
    .insertInto('notifications')
    .columns(['user_id', 'kind', 'title', 'body', 'link'])
    .expression((eb) =>
      eb
        .selectFrom('users as u')
        .leftJoin('notification_preferences as p', (join) =>
          join.onRef('p.user_id', '=', 'u.id').on('p.kind', '=', v.kind),
        )
        .select([
          'u.id',
          sql<string>`${v.kind}::text`.as('kind'),
          sql<string>`${v.title}::text`.as('title'),
          sql<string>`${v.body}::text`.as('body'),
          sql<string | null>`${v.link}::text`.as('link'),
        ])
        .where(who)
        // No row: the kind is on (preferences.ts).
        .where('p.enabled', 'is not', false)
        .$if(unlessUnread, (q) =>
          q.where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('notifications as n')
                  .select('n.id')
                  .whereRef('n.user_id', '=', 'u.id')
                  .where('n.kind', '=', v.kind)
                  .where('n.read_at', 'is', null),
              ),
            ),
          ),
        ),
    )
    .returning(['id', 'user_id', 'kind', 'title'])
    .execute();
  await announce(db, rows.map(toAnnouncement));
  await forward(
    db,
    v,
    rows.map((r) => r.user_id),
  );
}

/**
 * Queues the notification just stored as a UMS message on the channel of each of `userIds` who forwards
 * its kind (preferences.ts), in the same transaction; a failed UMS delivery never is (it could be about
 * that very channel).
 */
async function forward(db: Executor, v: ReturnType<typeof values>, userIds: number[]): Promise<void> {
  if (userIds.length === 0 || UNFORWARDED_NOTIFICATION_KINDS.includes(v.kind)) return;
  const to = await db
    .selectFrom('notification_forwarding as f')
    .innerJoin('notification_preferences as p', (join) =>
      join.onRef('p.user_id', '=', 'f.user_id').on('p.kind', '=', v.kind),
    )
    .select(['f.user_id as userId', 'f.channel_id as channelId'])
    .where('p.forward', '=', true)
    .where('f.channel_id', 'is not', null)
    .where('f.user_id', 'in', userIds)
    .execute();
  const content = [
    v.body || v.title,
    v.link ? `在门户中查看：${v.link}` : '',
    `（门户通知：${NOTIFICATION_KINDS[v.kind]}）`,
  ]
    .filter(Boolean)
    .join('\n\n');
  await queueForwarded(
    db,
    to.map((t) => ({ userId: t.userId, channelId: t.channelId! })),
    { title: v.title, content },
  );
}

function toAnnouncement(r: { id: number; user_id: number; kind: string; title: string }): LiveAnnouncement {
  return { u: r.user_id, item: { id: r.id, kind: r.kind as NotificationKind, title: r.title } };
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function listNotifications(
  db: Kysely<DB>,
  userId: number,
  q: NotificationListQuery,
): Promise<{ rows: NotificationItem[]; total: number }> {
  let base = db.selectFrom('notifications').where('user_id', '=', userId);
  if (q.kind) base = base.where('kind', '=', q.kind);
  if (q.read === 'unread') base = base.where('read_at', 'is', null);
  if (q.read === 'read') base = base.where('read_at', 'is not', null);
  const { rows, total } = await paginate(base, q, (b) =>
    b.select(['id', 'kind', 'title', 'body', 'link', 'created_at', 'read_at']).orderBy('id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      kind: r.kind as NotificationKind,
      title: r.title,
      body: r.body,
      link: r.link,
      createdAt: iso(r.created_at)!,
      readAt: iso(r.read_at),
    })),
  };
}

export async function unreadCount(db: Kysely<DB>, userId: number): Promise<number> {
  const r = await db
    .selectFrom('notifications')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks the given notifications of this user read (others' ids change nothing); `ids` null: all of them. */
export async function markRead(
  db: Kysely<DB>,
  userId: number,
  ids: number[] | null,
): Promise<{ updated: number; unread: number }> {
  let q = db
    .updateTable('notifications')
    .set({ read_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null);
  if (ids) q = q.where('id', 'in', ids);
  const res = await q.executeTakeFirst();
  const updated = Number(res.numUpdatedRows);
  // The owner's other tabs count again (autocommit: announced once the update is visible).
  if (updated > 0) await announce(db, [{ u: userId, read: true }]);
  return { updated, unread: await unreadCount(db, userId) };
}

/** Read notifications older than `days` go (the daily cleanup); unread ones stay until read. */
export async function pruneRead(db: Kysely<DB>, days: number): Promise<number> {
  const res = await db
    .deleteFrom('notifications')
    .where('read_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Days before a personal token expires that its owner is told (once). */
export const TOKEN_EXPIRY_NOTICE_DAYS = 7;

/**
 * Tells the owners of unrevoked personal tokens that expire within TOKEN_EXPIRY_NOTICE_DAYS (and were
 * made to live longer than that), once per token (the row is marked in the same statement, so two instances never both tell). Returns how many.
 */
export async function tellExpiringTokens(db: Kysely<DB>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .updateTable('api_tokens')
      .set({ expiry_told_at: sql<Date>`now()` })
      .where('revoked_at', 'is', null)
      .where('expiry_told_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .where('expires_at', '<=', sql<Date>`now() + make_interval(days => ${TOKEN_EXPIRY_NOTICE_DAYS})`)
      // A token made to live a week or less: its owner chose that, and is not told.
      .where(sql<boolean>`expires_at - created_at > make_interval(days => ${TOKEN_EXPIRY_NOTICE_DAYS})`)
      .returning(['user_id', 'name', 'expires_at'])
      .execute();
    for (const t of due) {
      const days = Math.max(1, Math.ceil((new Date(t.expires_at!).getTime() - Date.now()) / 86_400_000));
      await notify(trx, t.user_id, {
        kind: 'user.token-expiring',
        title: `令牌「${t.name}」将在 ${days} 天内过期`,
        body: '过期后使用它的脚本将无法调用门户。如仍需要，请生成新的令牌并更新脚本。',
        link: '/user/tokenManage',
      });
    }
    return due.length;
  });
}
