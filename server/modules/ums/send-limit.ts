/**
 * Limits on sending, counted across instances (app.limits):
 * - per token, every way a script sends (/api/ums/send, the ServerChan and PushPlus endpoints):
 *   UMS_TOKEN_PER_MINUTE a minute with bursts of at most UMS_TOKEN_BURST within 20 seconds;
 * - per user, every way a message is queued (the UI too): UMS_USER_PER_MINUTE messages a minute, each
 *   channel of a fan-out one message, and at most UMS_USER_MAX_SCHEDULED scheduled ones waiting
 *   (counted in the database by messages.ts).
 * 429 with Retry-After past any of them.
 */
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config';
import { tooMany } from '../../errors';
import type { SendQuota } from './messages';

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

export function userQuota(app: FastifyInstance, config: Config): SendQuota {
  const max = config.UMS_USER_PER_MINUTE;
  const perMinute = max > 0 ? app.limits.create({ keyPrefix: 'ums-user-min', points: max, duration: 60 }) : null;
  return {
    maxScheduled: config.UMS_USER_MAX_SCHEDULED,
    async take(userId, deliveries) {
      if (!perMinute) return async () => undefined;
      const key = String(userId);
      try {
        await perMinute.consume(key, deliveries);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        throw tooMany(
          `发送过于频繁：每人每分钟最多发送 ${max} 条消息（同时发往多个渠道时，每个渠道算一条），请稍后再试`,
          err.msBeforeNext / 1000,
        );
      }
      return async () => {
        await perMinute.reward(key, deliveries);
      };
    },
  };
}
