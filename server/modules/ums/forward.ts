/**
 * Messages the portal queues for a user itself: notifications they chose to have forwarded to one of
 * their channels (the notification centre calls queueForwarded() inside the transaction that stores the
 * notification). Only the user's own channel, and an e-mail address only once its owner agreed
 * (consent.ts); queued in the ordinary outbox (source `notification`), so the worker's pacing, quiet
 * hours, digests, consent check at sending and retries apply as to any message.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { awaitsConsent } from './consent';

/** Whether the user may have notifications forwarded to this channel: theirs, and not an unconfirmed address. */
export async function forwardTarget(
  db: Kysely<DB> | Transaction<DB>,
  userId: number,
  channelId: number,
): Promise<'ok' | 'missing' | 'unconfirmed'> {
  const c = await db
    .selectFrom('ums_channels')
    .select(['kind', 'confirmed_at'])
    .where('id', '=', channelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!c) return 'missing';
  return awaitsConsent(c) ? 'unconfirmed' : 'ok';
}

/**
 * One statement: a queued text message on each (user, channel) pair whose channel is still that user's
 * and usable (forwardTarget's rule). Returns how many were queued.
 */
export async function queueForwarded(
  db: Kysely<DB> | Transaction<DB>,
  to: { userId: number; channelId: number }[],
  m: { title: string; content: string },
): Promise<number> {
  if (to.length === 0) return 0;
  const rows = await db
    .insertInto('ums_messages')
    .columns(['user_id', 'channel_id', 'type', 'title', 'content', 'status', 'next_attempt_at', 'source'])
    .expression((eb) =>
      eb
        .selectFrom('ums_channels as c')
        .select([
          'c.user_id',
          'c.id',
          sql<string>`'text'`.as('type'),
          sql<string>`${m.title}::text`.as('title'),
          sql<string>`${m.content}::text`.as('content'),
          sql<string>`'queued'`.as('status'),
          sql<Date>`now()`.as('next_attempt_at'),
          sql<string>`'notification'`.as('source'),
        ])
        .where(
          sql<boolean>`(c.user_id, c.id) in (select * from unnest(${to.map((t) => t.userId)}::int[], ${to.map((t) => t.channelId)}::int[]))`,
        )
        .where((w) => w.or([w('c.kind', '<>', 'email'), w('c.confirmed_at', 'is not', null)])),
    )
    .returning('id')
    .execute();
  return rows.length;
}
