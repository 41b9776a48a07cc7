/**
 * Rate limiters that hold across instances (rate-limiter-flexible): `app.limits.create()` gives a
 * limiter whose counts live
 * - in Redis when REDIS_URL is set (one shared, fast store for N instances);
 * - otherwise in the database's `rate_limits` table (migration 0010) when other instances may share it
 *   (a PostgreSQL through DATABASE_URL), through the app's own Kysely handle;
 * - in this process's memory on the embedded database, where the process is the only instance.
 * Modules build their limiters from it, so a per-token limit of 10/s stays 10/s with N instances.
 * With a shared store, concurrent consumes of one key share one round trip (lib/coalesce-limiter.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CompiledQuery, type Kysely } from 'kysely';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DB } from '../db/schema';
import { coalesceConsumes } from '../lib/coalesce-limiter';

export interface LimiterSpec {
  /** Unique per limiter: the stores are shared by every limiter of every instance. */
  keyPrefix: string;
  points: number;
  /** Seconds. */
  duration: number;
}

export interface Limits {
  readonly store: 'memory' | 'database' | 'redis';
  create(spec: LimiterSpec): RateLimiterAbstract;
}

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits;
  }
}

export interface LimitsOptions {
  db: Kysely<DB>;
  /** True on the embedded database: this process is the only instance. */
  soleInstance: boolean;
  redisUrl?: string;
}

/** rate-limiter-flexible's PostgreSQL store speaks `client.query({ text, values })`: Kysely answers it. */
export function kyselyClient(db: Kysely<DB>) {
  return {
    query: (q: { text: string; values?: unknown[] }) =>
      db.executeQuery(CompiledQuery.raw(q.text, (q.values ?? []) as unknown[])),
  };
}

/** A limiter whose counts live in the rate_limits table (migration 0010), consumes coalesced per key. */
export function databaseLimiter(client: ReturnType<typeof kyselyClient>, spec: LimiterSpec): RateLimiterAbstract {
  return coalesceConsumes(
    new RateLimiterPostgres({
      storeClient: client,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: false,
      keyPrefix: spec.keyPrefix,
      points: spec.points,
      duration: spec.duration,
    }),
  );
}

export default fp(
  async function limits(app: FastifyInstance, opts: LimitsOptions) {
    let create: Limits['create'];
    let store: Limits['store'];
    if (opts.redisUrl) {
      const { Redis } = await import('ioredis');
      // No offline queue: while Redis is unreachable a check fails fast and falls back to memory.
      const client = new Redis(opts.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      client.on('error', (err: Error) => app.log.warn({ err: err.message }, 'redis (rate limits) unavailable'));
      app.addHook('onClose', async () => {
        client.disconnect();
      });
      store = 'redis';
      create = (spec) =>
        coalesceConsumes(
          new RateLimiterRedis({
            storeClient: client,
            keyPrefix: `portal:${spec.keyPrefix}`,
            points: spec.points,
            duration: spec.duration,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory({ points: spec.points, duration: spec.duration }),
          }),
        );
    } else if (!opts.soleInstance) {
      const client = kyselyClient(opts.db);
      store = 'database';
      create = (spec) => databaseLimiter(client, spec);
      // Rows expired an hour ago go every few minutes (every instance doing it too is harmless).
      app.scheduler.every('limits.prune', 300_000, () =>
        opts.db.executeQuery(CompiledQuery.raw('delete from rate_limits where expire < $1', [Date.now() - 3_600_000])),
      );
    } else {
      store = 'memory';
      create = (spec) =>
        new RateLimiterMemory({ keyPrefix: spec.keyPrefix, points: spec.points, duration: spec.duration });
    }
    app.decorate('limits', { store, create } satisfies Limits);
  },
  { name: 'limits', dependencies: ['scheduler'] },
);
