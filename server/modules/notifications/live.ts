/**
 * Live delivery of the notification centre: each instance keeps the event streams its signed-in users
 * opened (`GET /api/notifications/stream`, one per tab) and listens on the database channel the store
 * announces on (service.ts, LIVE_CHANNEL: at commit, to every instance, PGlite's and PostgreSQL's
 * LISTEN/NOTIFY alike). An announcement for a user with streams here becomes an event on each of them
 * carrying their new unread count (and the new notification's id, kind and title); nothing of anyone
 * else. A stream's session is checked again before each event and on every heartbeat, so a stream
 * whose session was ended, signed out or expired stops; a stream the browser dropped is forgotten.
 *
 * This is the only state about notifications an instance holds, and it is only about its own open
 * connections: what a tab missed while it was not connected it reads again when it connects (the
 * stream opens with the current count).
 */
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Notifier } from '../../db/notify';
import type { DB } from '../../db/schema';
import type { SessionUser } from '../../plugins/auth';
import { LIVE_CHANNEL, unreadCount, type LiveAnnouncement } from './service';

/** One open event stream (a tab). */
export interface LiveStream {
  userId: number;
  /** The session cookie it was opened with, checked again before each event and on every heartbeat. */
  session: string;
  write(chunk: string): void;
  end(): void;
}

/** The events a stream carries (their `event:` names), and what each says. */
export type LiveEvent =
  | { event: 'unread'; data: { unread: number } }
  | { event: 'notification'; data: { unread: number; item: { id: number; kind: string; title: string } } };

/** Streams one user may keep open on one instance; a newer one closes the oldest (a browser caps tabs' streams anyway). */
export const MAX_STREAMS_PER_USER = 16;

export function formatEvent(e: LiveEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

function isAnnouncement(v: unknown): v is LiveAnnouncement {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  if (typeof a.u !== 'number') return false;
  if (a.read === true) return true;
  const item = a.item as Record<string, unknown> | undefined;
  return typeof item?.id === 'number' && typeof item.kind === 'string' && typeof item.title === 'string';
}

export class LiveHub {
  private readonly streams = new Map<number, Set<LiveStream>>();
  /** Per user, the events being prepared: each waits for the previous one, so counts never go back in time. */
  private readonly queues = new Map<number, Promise<void>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifier: Notifier,
    private readonly resolveSession: (cookie: string) => Promise<SessionUser | null>,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.notifier.listen(LIVE_CHANNEL, {
      onMessage: (payload) => this.heard(payload),
      // Announcements may have been missed: every stream here is told its count again.
      onGap: () => {
        for (const userId of this.streams.keys()) this.enqueue(userId, null);
      },
    });
  }

  /** Open streams on this instance (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  open(stream: LiveStream): void {
    let set = this.streams.get(stream.userId);
    if (!set) this.streams.set(stream.userId, (set = new Set()));
    if (set.size >= MAX_STREAMS_PER_USER) this.end(set.values().next().value!);
    set.add(stream);
  }

  /** The browser went away (or the stream was ended): forget it. */
  close(stream: LiveStream): void {
    const set = this.streams.get(stream.userId);
    if (!set?.delete(stream)) return;
    if (set.size === 0) this.streams.delete(stream.userId);
  }

  /**
   * The heartbeat round: a comment on every stream whose session still holds (proxies keep an idle
   * connection open only so long), the end of every other. Asking the notifier whether it is live also
   * reconnects a dropped PostgreSQL listener, whose return tells every stream its count again.
   */
  async heartbeat(): Promise<void> {
    void this.notifier.live;
    const all = [...this.streams.values()].flatMap((set) => [...set]);
    await Promise.all(
      all.map(async (s) => {
        if (await this.signedIn(s)) s.write(': ping\n\n');
      }),
    );
  }

  /** Ends every stream (the server is closing; the browsers reconnect to another instance). */
  endAll(): void {
    for (const set of [...this.streams.values()]) for (const s of [...set]) this.end(s);
  }

  private end(s: LiveStream): void {
    this.close(s);
    s.end();
  }

  private heard(payload: string): void {
    let a: unknown;
    try {
      a = JSON.parse(payload);
    } catch {
      return;
    }
    if (!isAnnouncement(a) || !this.streams.has(a.u)) return;
    this.enqueue(a.u, 'item' in a ? a.item : null);
  }

  private enqueue(userId: number, item: { id: number; kind: string; title: string } | null): void {
    const previous = this.queues.get(userId) ?? Promise.resolve();
    const next = previous
      .then(() => this.tell(userId, item))
      .catch((err: unknown) => this.log.warn({ err }, 'notification stream: an event could not be prepared'))
      .finally(() => {
        if (this.queues.get(userId) === next) this.queues.delete(userId);
      });
    this.queues.set(userId, next);
  }

  private async tell(userId: number, item: { id: number; kind: string; title: string } | null): Promise<void> {
    if (!this.streams.has(userId)) return;
    const unread = await unreadCount(this.db, userId);
    const chunk = formatEvent(
      item ? { event: 'notification', data: { unread, item } } : { event: 'unread', data: { unread } },
    );
    const set = [...(this.streams.get(userId) ?? [])];
    await Promise.all(
      set.map(async (s) => {
        if (await this.signedIn(s)) s.write(chunk);
      }),
    );
  }

  /**
   * Whether the stream's session still stands for its user; a stream whose session ended is ended.
   * A failed check (the database unreachable) sends nothing this time and keeps the stream.
   */
  private async signedIn(s: LiveStream): Promise<boolean> {
    let user: SessionUser | null;
    try {
      user = await this.resolveSession(s.session);
    } catch {
      return false;
    }
    if (user && user.id === s.userId && !user.mustEnrollTwoFactor) return true;
    this.end(s);
    return false;
  }
}
