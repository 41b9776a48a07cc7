/** HTTP layer of UMS: channels, messages, statistics, and the curl-friendly token API. */
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { SendApiInput } from '@contract';
import * as api from '@contract/api/ums';
import type { AppDeps } from '../../deps';
import { parseOr400, tooMany } from '../../errors';
import { success, SUCCESS, paged } from '../../http/reply';
import { route, type EndpointRequest } from '../../http/route';
import * as channels from './channels';
import type { UmsContext } from './channels';
import * as messages from './messages';

export interface UmsRouteDeps extends AppDeps {
  ums: UmsContext;
  /** A message was queued: run a delivery round now. */
  wake: () => void;
}

export default async function umsRoutes(app: FastifyInstance, deps: UmsRouteDeps): Promise<void> {
  const { db, config, ums: ctx, wake } = deps;
  const now = () => deps.clock?.() ?? new Date();

  // ---------- channels ----------
  route(app, api.listChannels, async (request) => success(await channels.listChannels(db, request.user!.id)));
  route(app, api.createChannel, async (request) =>
    success(await channels.createChannel(db, ctx, request.user!.id, request.body)),
  );
  route(app, api.updateChannel, async (request) =>
    success(await channels.updateChannel(db, ctx, request.user!.id, request.params.id, request.body)),
  );
  route(app, api.deleteChannel, async (request) => {
    await channels.deleteChannel(db, request.user!.id, request.params.id);
    return SUCCESS;
  });
  route(
    app,
    api.testChannel,
    async (request) => success(await channels.testChannel(db, ctx, request.user!.id, request.params.id)),
    { rateLimit: { max: 10, timeWindow: '1 minute' } },
  );

  // ---------- messages ----------
  route(app, api.createMessage, async (request) => {
    const created = await messages.createMessage(db, request.user!.id, request.body, 'ui', now());
    wake();
    return success(created);
  });
  route(app, api.listMessages, async (request) =>
    paged(await messages.listMessages(db, request.user!.id, request.query), request.query),
  );
  route(app, api.getMessage, async (request) => {
    const userId = request.user?.id ?? request.tokenAuth!.userId;
    return success(await messages.getMessage(db, userId, request.params.id));
  });
  route(app, api.resendMessage, async (request) => {
    const data = await messages.resendMessage(db, request.user!.id, request.params.id, now());
    wake();
    return success(data);
  });
  route(app, api.cancelMessage, async (request) =>
    success(await messages.cancelMessage(db, request.user!.id, request.params.id)),
  );
  route(app, api.stats, async (request) => success(await messages.stats(db, request.user!.id, config.PORTAL_TZ)));

  // ---------- the token API ----------
  // 60 a minute with bursts of at most 20: both windows must have room, counted across instances.
  const perMinute = app.limits.create({
    keyPrefix: 'ums-token-min',
    points: config.UMS_TOKEN_PER_MINUTE,
    duration: 60,
  });
  const burst =
    config.UMS_TOKEN_BURST > 0
      ? app.limits.create({ keyPrefix: 'ums-token-burst', points: config.UMS_TOKEN_BURST, duration: 20 })
      : null;
  const limit = async (key: string) => {
    try {
      if (burst) await burst.consume(key);
      await perMinute.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany('发送过于频繁，请稍后再试', err.msBeforeNext / 1000);
      throw err;
    }
  };

  const send = async (request: EndpointRequest<typeof api.sendGet>) => {
    const auth = request.tokenAuth!;
    await limit(String(auth.tokenId));
    const input = parseOr400(SendApiInput, { ...(request.query as object), ...((request.body as object) ?? {}) });
    const created = await messages.createMessage(db, auth.userId, input, 'api', now());
    wake();
    return success(created);
  };
  route(app, api.sendGet, send);
  route(app, api.sendPost, send);
}
