/**
 * Telling every instance that something changed, so per-instance caches can drop what they hold.
 *
 * - On PostgreSQL (DATABASE_URL, several instances may share the database): `notify()` runs
 *   `pg_notify()`, on the transaction it is given (delivered when that transaction commits, never if
 *   it rolls back) or on its own; one dedicated connection per instance LISTENs and hands each
 *   payload to the handlers, this instance's own included. While that connection is down a cache
 *   cannot know what it missed: `live` is false, the handlers' `onGap` runs when it drops and again
 *   when it is back, and it reconnects when next asked (no timer).
 * - On the embedded database the process is alone (DATA_DIR lock), yet the same SQL: `pg_notify()` on the
 *   transaction, and PGlite's own LISTEN (its worker hands each notification to this thread); always live.
 *   PGlite delivers at commit, with the answer to the committing statement, so a listener here has
 *   heard it before the committer's `await` returns.
 * - A handle made some other way (notifierOf): an in-process emitter, at once.
 *
 * Delivery is asynchronous on PostgreSQL: a cache must also drop its own entries itself when it makes
 * a change, and treat notifications as the word of the other instances.
 */
import { EventEmitter } from 'node:events';
import { sql, type Kysely, type Transaction } from 'kysely';
import pg from 'pg';

import type { DB } from './schema';

type Executor = Kysely<DB> | Transaction<DB>;

export interface Listener {
  onMessage(payload: string): void;
  /** Notifications may have been missed (the listening connection dropped or came back). */
  onGap?(): void;
}

export interface Notifier {
  readonly kind: 'postgres' | 'local';
  /** True while every notification is known to arrive; asking also reconnects a dropped listener. */
  readonly live: boolean;
  /** With a transaction on PostgreSQL, sent when it commits. Payloads stay under 8000 bytes. */
  notify(channel: string, payload: string, executor?: Executor): Promise<void>;
  listen(channel: string, listener: Listener): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
}

/** The embedded database's notifier: the process is the only instance. */
export class LocalNotifier implements Notifier {
  readonly kind = 'local';
  readonly live = true;
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async notify(channel: string, payload: string): Promise<void> {
    checkChannel(channel);
    this.emitter.emit(channel, payload);
  }

  async listen(channel: string, listener: Listener): Promise<void> {
    checkChannel(channel);
    this.emitter.on(channel, (payload: string) => listener.onMessage(payload));
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** `pg_notify()` on the executor: with a transaction, sent when it commits and never if it rolls back. */
async function pgNotify(executor: Executor, channel: string, payload: string): Promise<void> {
  checkChannel(channel);
  await sql`select pg_notify(${channel}, ${payload})`.execute(executor);
}

/**
 * What both database notifiers share: `pg_notify()` on the executor, and the listeners by channel. The
 * first listener of a channel makes the database LISTEN on it (`startListening`); later ones join it.
 */
abstract class DatabaseNotifier {
  protected readonly listeners = new Map<string, Listener[]>();

  constructor(protected readonly db: Executor) {}

  notify(channel: string, payload: string, executor?: Executor): Promise<void> {
    return pgNotify(executor ?? this.db, channel, payload);
  }

  async listen(channel: string, listener: Listener): Promise<void> {
    checkChannel(channel);
    const list = this.listeners.get(channel);
    if (list) {
      list.push(listener);
      return;
    }
    this.listeners.set(channel, [listener]);
    await this.startListening(channel);
  }

  protected abstract startListening(channel: string): Promise<void>;

  /** Hands a notification to the channel's listeners. */
  deliver(channel: string, payload: string): void {
    for (const l of this.listeners.get(channel) ?? []) l.onMessage(payload);
  }
}

/**
 * LISTEN/NOTIFY on the embedded database. PGlite is one session: its LISTENs hear every NOTIFY of the
 * process, at commit. `deliver` is fed the worker's notifications (database.ts).
 */
export class PgliteNotifier extends DatabaseNotifier implements Notifier {
  readonly kind = 'local';
  readonly live = true;

  protected async startListening(channel: string): Promise<void> {
    // Through the driver, which never runs it inside another caller's transaction.
    await sql`${sql.raw(`listen ${channel}`)}`.execute(this.db);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

/** LISTEN/NOTIFY on PostgreSQL, through one dedicated connection (not from the pool). */
export class PgNotifier extends DatabaseNotifier implements Notifier {
  readonly kind = 'postgres';
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private connected = false;
  private closed = false;
  private lastAttempt = 0;
  private warned = false;

  constructor(
    private readonly url: string,
    db: Executor,
    private readonly retryMs = 1_000,
  ) {
    super(db);
  }

  get live(): boolean {
    if (!this.connected && this.listeners.size > 0) this.reconnectSoon();
    return this.connected;
  }

  protected async startListening(channel: string): Promise<void> {
    // A connection that is up (or comes up while this waits) may not listen on this channel yet.
    if (!this.connected) await this.connect();
    if (this.connected && this.client) await this.client.query(`listen ${channel}`);
  }

  /** Starts a connection attempt unless one is running or the last one failed under retryMs ago. */
  private reconnectSoon(): void {
    if (this.closed || this.connecting || Date.now() - this.lastAttempt < this.retryMs) return;
    void this.connect();
  }

  private connect(): Promise<void> {
    if (this.connecting) return this.connecting;
    this.lastAttempt = Date.now();
    const attempt = (async () => {
      const client = new pg.Client({ connectionString: this.url });
      const dropped = () => this.dropped(client);
      client.on('error', dropped);
      client.on('end', dropped);
      client.on('notification', (msg) => this.deliver(msg.channel, msg.payload ?? ''));
      try {
        await client.connect();
        for (const channel of this.listeners.keys()) await client.query(`listen ${channel}`);
      } catch (err) {
        client.removeAllListeners();
        client.on('error', () => undefined);
        await client.end().catch(() => undefined);
        // Once per outage, not once per retry.
        if (!this.warned) {
          this.warned = true;
          process.stderr.write(`notification listener not connected (caches stay off): ${(err as Error).message}\n`);
        }
        return;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.connected = true;
      this.warned = false;
      // Whatever was announced before LISTEN took effect is unknown.
      this.gap();
    })().finally(() => (this.connecting = null));
    this.connecting = attempt;
    return attempt;
  }

  private dropped(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.connected = false;
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    if (!this.closed) this.gap();
  }

  private gap(): void {
    for (const list of this.listeners.values()) for (const l of list) l.onGap?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    const client = this.client;
    this.client = null;
    this.connected = false;
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}

const notifiers = new WeakMap<object, Notifier>();

/** Called by openDatabase: this database handle's notifier. */
export function registerNotifier(db: Kysely<DB>, notifier: Notifier): void {
  notifiers.set(db, notifier);
}

/**
 * The notifier of a database handle opened by openDatabase. A handle made some other way gets an
 * in-process one, which is right only when nothing else writes to that database.
 */
export function notifierOf(db: Kysely<DB>): Notifier {
  let n = notifiers.get(db);
  if (!n) {
    n = new LocalNotifier();
    notifiers.set(db, n);
  }
  return n;
}
