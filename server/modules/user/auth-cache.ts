/**
 * The personal-token check without a database round trip: what verifyToken read for a token (by its
 * hash), kept for TOKEN_CACHE_MS. Only tokens that passed (found, not revoked, owner active) are kept;
 * expiry and scope are still checked on every use.
 *
 * Changes that can make a token fail (revoke, an owner's status or roles, password reset, deleting the
 * user and so their tokens) go through `announce` inside their transaction and `forget` after it:
 * this instance drops the entries at once, and other instances hear it through the database's
 * notifier (LISTEN/NOTIFY on PostgreSQL, delivered at commit). A read that started before a change
 * is never cached after it (a generation counter), and while the notifier cannot promise delivery
 * (its connection is down) nothing is served from the cache.
 */
import type { Kysely, Transaction } from 'kysely';
import { notifierOf, type Notifier } from '../../db/notify';
import type { DB } from '../../db/schema';
import type { TokenAuth } from '../../plugins/auth';

export const TOKEN_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;
const CHANNEL = 'portal_token_changes';

export interface CachedToken {
  auth: TokenAuth;
  /** ms since epoch, or null for a token without expiry. */
  expiresAt: number | null;
  /** When last-used was last written (ms), as far as this instance knows. */
  lastUsedAt: number | null;
}

/** What changed: one token, or everything of one user. */
export type AuthChange = { tokenId: number } | { userId: number };

export class AuthCache {
  private readonly entries = new Map<string, CachedToken & { at: number }>();
  private gen = 0;
  private listening: Promise<void> | null = null;

  constructor(
    private readonly notifier: Notifier,
    private readonly ttlMs = TOKEN_CACHE_MS,
  ) {}

  /** Read before the database lookup; put() keeps a result only if nothing changed meanwhile. */
  get generation(): number {
    return this.gen;
  }

  getToken(hash: string): CachedToken | null {
    this.listen();
    if (!this.notifier.live) return null;
    const e = this.entries.get(hash);
    if (!e) return null;
    if (Date.now() - e.at > this.ttlMs) {
      this.entries.delete(hash);
      return null;
    }
    return e;
  }

  /** Keeps the value unless a change came after `generation` was read; returns what callers update. */
  putToken(hash: string, value: CachedToken, generation: number): CachedToken {
    if (generation !== this.gen || !this.notifier.live) return value;
    if (this.entries.size >= MAX_ENTRIES) {
      // The oldest first (insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const entry = { ...value, at: Date.now() };
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return entry;
  }

  dropToken(hash: string): void {
    this.entries.delete(hash);
  }

  /** Inside the transaction that makes the change: tells the other instances (at commit) and this one. */
  async announce(trx: Transaction<DB>, change: AuthChange): Promise<void> {
    this.forget(change);
    await this.notifier.notify(CHANNEL, JSON.stringify(change), trx);
  }

  /** Drops this instance's entries for the change (again after the commit: a read may have slipped in). */
  forget(change: AuthChange): void {
    this.gen++;
    for (const [hash, e] of this.entries) {
      if ('tokenId' in change ? e.auth.tokenId === change.tokenId : e.auth.userId === change.userId) {
        this.entries.delete(hash);
      }
    }
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }

  /** Starts listening for other instances' changes (the cache serves nothing until it is live). */
  listen(): void {
    if (this.listening) return;
    this.listening = this.notifier
      .listen(CHANNEL, {
        onMessage: (payload) => {
          try {
            const change = JSON.parse(payload) as AuthChange;
            if (typeof change === 'object' && change && ('tokenId' in change || 'userId' in change)) {
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
        process.stderr.write(`token cache listener failed (cache off): ${err.message}\n`);
      });
  }
}

const caches = new WeakMap<Kysely<DB>, AuthCache>();

/** The token cache of a database handle: one per instance and database. */
export function authCacheOf(db: Kysely<DB>): AuthCache {
  let c = caches.get(db);
  if (!c) {
    c = new AuthCache(notifierOf(db));
    caches.set(db, c);
  }
  return c;
}
