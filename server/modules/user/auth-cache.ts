/**
 * Sign-in checks without a database round trip: what verifyToken read for a personal token and what
 * resolveSession read for a session cookie (both by the secret's hash), kept for AUTH_CACHE_MS. Only
 * what passed is kept (a token found, not revoked, its owner active; a session found, unexpired, its
 * user active); a token's expiry and scope and a session's expiry are still checked on every use, and a
 * session still writes its last use once a minute (which also finds a session gone from the database).
 *
 * Changes that can make a token or session fail or change what it carries (revoking a token, ending a
 * session or signing out, a user's status, roles, nickname, avatar or second factor, a password change
 * or reset, deleting the user) go through `announce` inside their transaction and `forget` after it
 * (`withAuthChange` does both for a change known up front):
 * this instance drops the entries at once, and other instances hear it through the database's
 * notifier (LISTEN/NOTIFY on PostgreSQL, delivered at commit). A read that started before a change
 * is never cached after it (a generation counter), and while the notifier cannot promise delivery
 * (its connection is down) nothing is served from the cache.
 */
import type { Kysely, Transaction } from 'kysely';
import { notifierOf, type Notifier } from '../../db/notify';
import type { DB } from '../../db/schema';
import type { SessionUser, TokenAuth } from '../../plugins/auth';

export const AUTH_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = 'portal_token_changes';

export interface CachedToken {
  auth: TokenAuth;
  /** ms since epoch, or null for a token without expiry. */
  expiresAt: number | null;
  /** When last-used was last written (ms), as far as this instance knows. */
  lastUsedAt: number | null;
}

export interface CachedSession {
  /** The user as the session resolves, before the two-factor enrolment flag (computed per use). */
  user: Omit<SessionUser, 'mustEnrollTwoFactor'>;
  twoFactor: boolean;
  persistent: boolean;
  /** ms since epoch. */
  expiresAt: number;
  /** When last-seen was last written (ms), as far as this instance knows. */
  lastSeenAt: number;
}

/** What changed: one token, one session (by its hash), or everything of one user. */
export type AuthChange = { tokenId: number } | { sessionHash: string } | { userId: number };

function isChange(v: unknown): v is AuthChange {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return typeof c.tokenId === 'number' || typeof c.userId === 'number' || typeof c.sessionHash === 'string';
}

type Stamped<T> = T & { at: number };

export class AuthCache {
  private readonly tokens = new Map<string, Stamped<CachedToken>>();
  private readonly sessions = new Map<string, Stamped<CachedSession>>();
  private gen = 0;
  private listening: Promise<void> | null = null;

  constructor(
    private readonly notifier: Notifier,
    private readonly ttlMs = AUTH_CACHE_MS,
  ) {}

  /** Read before the database lookup; a put keeps a result only if nothing changed meanwhile. */
  get generation(): number {
    return this.gen;
  }

  getToken(hash: string): CachedToken | null {
    return this.take(this.tokens, hash);
  }

  putToken(hash: string, value: CachedToken, generation: number): CachedToken {
    return this.keep(this.tokens, hash, value, generation);
  }

  dropToken(hash: string): void {
    this.tokens.delete(hash);
  }

  /** A cached session, unless it has expired. */
  getSession(hash: string): CachedSession | null {
    const e = this.take(this.sessions, hash);
    if (e && e.expiresAt <= Date.now()) {
      this.sessions.delete(hash);
      return null;
    }
    return e;
  }

  putSession(hash: string, value: CachedSession, generation: number): CachedSession {
    return this.keep(this.sessions, hash, value, generation);
  }

  dropSession(hash: string): void {
    this.sessions.delete(hash);
  }

  private take<T>(map: Map<string, Stamped<T>>, hash: string): T | null {
    this.listen();
    if (!this.notifier.live) return null;
    const e = map.get(hash);
    if (!e) return null;
    if (Date.now() - e.at > this.ttlMs) {
      map.delete(hash);
      return null;
    }
    return e;
  }

  /** Keeps the value unless a change came after `generation` was read; returns what callers update. */
  private keep<T extends object>(map: Map<string, Stamped<T>>, hash: string, value: T, generation: number): T {
    if (generation !== this.gen || !this.notifier.live) return value;
    if (map.size >= MAX_ENTRIES) {
      // The oldest first (insertion order).
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    const entry = { ...value, at: Date.now() };
    map.delete(hash);
    map.set(hash, entry);
    return entry;
  }

  /** Inside the transaction that makes the change: tells the other instances (at commit) and this one. */
  async announce(trx: Transaction<DB>, change: AuthChange): Promise<void> {
    this.forget(change);
    await this.notifier.notify(CHANNEL, JSON.stringify(change), trx);
  }

  /** Drops this instance's entries for the change (again after the commit: a read may have slipped in). */
  forget(change: AuthChange): void {
    this.gen++;
    if ('sessionHash' in change) {
      this.sessions.delete(change.sessionHash);
      return;
    }
    for (const [hash, e] of this.tokens) {
      if ('tokenId' in change ? e.auth.tokenId === change.tokenId : e.auth.userId === change.userId) {
        this.tokens.delete(hash);
      }
    }
    if ('userId' in change) {
      for (const [hash, e] of this.sessions) if (e.user.id === change.userId) this.sessions.delete(hash);
    }
  }

  clear(): void {
    this.gen++;
    this.tokens.clear();
    this.sessions.clear();
  }

  /** Starts listening for other instances' changes (the cache serves nothing until it is live). */
  listen(): void {
    if (this.listening) return;
    this.listening = this.notifier
      .listen(CHANNEL, {
        onMessage: (payload) => {
          try {
            const change: unknown = JSON.parse(payload);
            if (isChange(change)) {
              this.forget(change);
              return;
            }
          } catch {
            // not ours: drop everything to be safe
          }
          this.clear();
        },
        onGap: () => this.clear(),
      })
      .catch((err: Error) => {
        process.stderr.write(`auth cache listener failed (cache off): ${err.message}\n`);
      });
  }
}

/**
 * Runs `fn` in a transaction that makes `change`: announced at its end (other instances hear it at the
 * commit) and forgotten again on this instance after the commit. For a change known before the
 * transaction starts; one found inside it calls announce/forget itself.
 */
export async function withAuthChange<T>(
  db: Kysely<DB>,
  change: AuthChange,
  fn: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  const cache = authCacheOf(db);
  const result = await db.transaction().execute(async (trx) => {
    const r = await fn(trx);
    await cache.announce(trx, change);
    return r;
  });
  cache.forget(change);
  return result;
}

const caches = new WeakMap<Kysely<DB>, AuthCache>();

/** The sign-in cache of a database handle: one per instance and database. */
export function authCacheOf(db: Kysely<DB>): AuthCache {
  let c = caches.get(db);
  if (!c) {
    c = new AuthCache(notifierOf(db));
    caches.set(db, c);
  }
  return c;
}
