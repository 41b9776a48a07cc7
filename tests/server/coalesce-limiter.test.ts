/**
 * Coalesced consumes (server/lib/coalesce-limiter.ts): concurrent consumes of one key reach the store
 * as one, and each is let through or refused exactly as if they had gone one by one. The store is
 * rate-limiter-flexible's memory store (calls counted), and the database store on the real test
 * database, shared by two limiters as two instances would share it.
 */
import { sql } from 'kysely';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { coalesceConsumes } from '../../server/lib/coalesce-limiter';
import { databaseLimiter, kyselyClient } from '../../server/plugins/limits';
import { openTestDatabase } from './helpers';

/** A memory limiter whose store calls are counted, coalesced. */
function counted(points: number) {
  const inner = new RateLimiterMemory({ points, duration: 60 });
  const calls: number[] = [];
  const consume = inner.consume.bind(inner);
  inner.consume = (key, p = 1, options) => {
    calls.push(p);
    return consume(key, p, options);
  };
  return { limiter: coalesceConsumes(inner), calls };
}

type Outcome = { ok: boolean; consumed: number };
const outcome = (p: Promise<RateLimiterRes>): Promise<Outcome> =>
  p.then(
    (r) => ({ ok: true, consumed: r.consumedPoints }),
    (r: unknown) => {
      if (!(r instanceof RateLimiterRes)) throw r;
      return { ok: false, consumed: r.consumedPoints };
    },
  );

test('50 concurrent consumes of a limit of 10: the first 10 pass, in two store calls', async () => {
  const { limiter, calls } = counted(10);
  const results = await Promise.all(Array.from({ length: 50 }, () => outcome(limiter.consume('token-a'))));
  expect(results.map((r) => r.ok)).toEqual([...Array(10).fill(true), ...Array(40).fill(false)]);
  expect(results.map((r) => r.consumed)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  expect(calls).toEqual([1, 49]);
  // Later, alone: refused, counted on.
  expect(await outcome(limiter.consume('token-a'))).toEqual({ ok: false, consumed: 51 });
  // Another key is its own count.
  expect(await outcome(limiter.consume('token-b'))).toEqual({ ok: true, consumed: 1 });
});

test('consumes of several points are judged in arrival order, as one by one', async () => {
  const { limiter, calls } = counted(10);
  const results = await Promise.all([3, 3, 3, 3, 1].map((p) => outcome(limiter.consume('k', p))));
  // 3 | 6, 9, 12, 13: the fourth would pass 10, so would the fifth (the store counts refused points).
  expect(results).toEqual([
    { ok: true, consumed: 3 },
    { ok: true, consumed: 6 },
    { ok: true, consumed: 9 },
    { ok: false, consumed: 12 },
    { ok: false, consumed: 13 },
  ]);
  expect(calls).toEqual([3, 10]);
});

test('a consume with options goes alone; a store failure fails its whole group', async () => {
  const inner = new RateLimiterMemory({ points: 5, duration: 60 });
  const consume = inner.consume.bind(inner);
  let fail = false;
  inner.consume = (key, p = 1, options) => (fail ? Promise.reject(new Error('store down')) : consume(key, p, options));
  const limiter = coalesceConsumes(inner);
  const first = limiter.consume('k');
  fail = true;
  const group = [limiter.consume('k'), limiter.consume('k')];
  await expect(first).resolves.toBeInstanceOf(RateLimiterRes);
  for (const p of group) await expect(p).rejects.toThrow('store down');
  fail = false;
  await expect(limiter.consume('k', 1, { customDuration: 10 })).resolves.toBeInstanceOf(RateLimiterRes);
});

test('on the database store, two limiters (two instances) hold one limit together', async () => {
  const t = await openTestDatabase();
  try {
    const client = kyselyClient(t.db);
    const make = () => databaseLimiter(client, { keyPrefix: 'coalesce-test', points: 20, duration: 60 });
    const a = make();
    const b = make();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => outcome((i % 2 ? a : b).consume('token-x'))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect(results.map((r) => r.consumed).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const row = await sql<{
      points: number;
    }>`select points from rate_limits where key = 'coalesce-test:token-x'`.execute(t.db);
    expect(row.rows[0]!.points).toBe(60);
    // Counts skip the write-ahead log (migration 0014).
    const kind = await sql<{
      p: string;
    }>`select relpersistence as p from pg_class where relname = 'rate_limits'`.execute(t.db);
    expect(kind.rows[0]!.p).toBe('u');
  } finally {
    await t.close();
  }
});
