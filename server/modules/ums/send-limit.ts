/**
 * The per-token limit of every way a script sends (/api/ums/send, the ServerChan and PushPlus
 * endpoints): UMS_TOKEN_PER_MINUTE a minute with bursts of at most UMS_TOKEN_BURST within 20 seconds,
 * both windows counted across instances (app.limits). 429 with Retry-After past either.
 */
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config';
import { tooMany } from '../../errors';

export type SendLimit = (tokenId: number) => Promise<void>;

export function sendLimit(app: FastifyInstance, config: Config): SendLimit {
  const perMinute = app.limits.create({
    keyPrefix: 'ums-token-min',
    points: config.UMS_TOKEN_PER_MINUTE,
    duration: 60,
  });
  const burst =
    config.UMS_TOKEN_BURST > 0
      ? app.limits.create({ keyPrefix: 'ums-token-burst', points: config.UMS_TOKEN_BURST, duration: 20 })
      : null;
  return async (tokenId) => {
    const key = String(tokenId);
    try {
      if (burst) await burst.consume(key);
      await perMinute.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany('发送过于频繁，请稍后再试', err.msBeforeNext / 1000);
      throw err;
    }
  };
}
