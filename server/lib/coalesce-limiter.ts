/**
 * Coalesced consumes for a shared rate-limit store (the database or Redis): while one consume of a
 * key is at the store, the consumes of that key arriving meanwhile wait, and then go to the store
 * together as ONE consume of their summed points. Each is then let through or refused as if they had
 * gone one by one, in arrival order: the store adds every point either way (a refused consume counts
 * too in rate-limiter-flexible), and the i-th of a group passes exactly when the count before the
 * group plus the points up to and including its own stay within the limit.
 *
 * A hot key (one OCS token at hundreds of queries a second) so costs the store one round trip at a
 * time per instance instead of one per request, and the limit stays exact across instances because
 * the count still lives in the shared store. An idle key's consume goes straight through.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

interface Waiting {
  points: number;
  resolve: (r: RateLimiterRes) => void;
  reject: (e: unknown) => void;
}

/** Makes `limiter.consume` coalesce per key (in place); returns the same limiter. */
export function coalesceConsumes<T extends RateLimiterAbstract>(limiter: T): T {
  const consumeOne = limiter.consume.bind(limiter);
  /** Keys with a consume at the store, and what arrived for them since. */
  const busy = new Map<string, Waiting[]>();

  const settleGroup = (group: Waiting[], total: number, res: RateLimiterRes, refused: boolean) => {
    const before = res.consumedPoints - total;
    let sum = 0;
    for (const w of group) {
      sum += w.points;
      const consumed = before + sum;
      const each = new RateLimiterRes(
        Math.max(0, limiter.points - consumed),
        res.msBeforeNext,
        consumed,
        res.isFirstInDuration && sum === w.points,
      );
      // Without a refusal every one of them fits (the whole group did).
      if (refused && consumed > limiter.points) w.reject(each);
      else w.resolve(each);
    }
  };

  const drain = async (key: string) => {
    for (;;) {
      const group = busy.get(key)!;
      if (group.length === 0) {
        busy.delete(key);
        return;
      }
      busy.set(key, []);
      const total = group.reduce((n, w) => n + w.points, 0);
      try {
        settleGroup(group, total, await consumeOne(key, total), false);
      } catch (err) {
        if (err instanceof RateLimiterRes) settleGroup(group, total, err, true);
        else for (const w of group) w.reject(err);
      }
    }
  };

  limiter.consume = (key: string | number, points = 1, options?: { [key: string]: unknown }) => {
    // Options (a custom duration, say) make a consume unlike the others: it goes alone.
    if (options && Object.keys(options).length > 0) return consumeOne(key, points, options);
    const k = String(key);
    const waiting = busy.get(k);
    if (waiting) {
      return new Promise<RateLimiterRes>((resolve, reject) => waiting.push({ points, resolve, reject }));
    }
    busy.set(k, []);
    return consumeOne(k, points).finally(() => void drain(k));
  };
  return limiter;
}
