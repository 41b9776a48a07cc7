/** HTTP layer of UMS: channels, messages, statistics, and the curl-friendly token API (compat-routes.ts: ServerChan, PushPlus). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SendApiInput } from '@contract';
import * as api from '@contract/api/ums';
import type { AppDeps } from '../../deps';
import { parseOr400 } from '../../errors';
import { success, SUCCESS, paged } from '../../http/reply';
import { route, type EndpointRequest } from '../../http/route';
import * as callbacks from './callbacks';
import * as channels from './channels';
import * as consent from './consent';
import { homeSummary } from './home-summary';
import type { UmsContext } from './channels';
import * as messages from './messages';
import { searchMessages } from './search';
import type { SendLimit } from './send-limit';
import type { SendQuota } from './messages';
import * as templates from './templates';

export interface UmsRouteDeps extends AppDeps {
  ums: UmsContext;
  /** A message was queued: run a delivery round now. */
  wake: () => void;
  /** The per-token limit of the script APIs. */
  limit: SendLimit;
  /** The per-user allowance of new messages, whichever way they come. */
  quota: SendQuota;
}

/** Queues a message through the outbox with the sender's allowance, and wakes the worker. */
export function createWith(deps: UmsRouteDeps) {
  return async (userId: number, input: messages.NewMessage, source: 'ui' | 'api', requestHost: string) => {
    const created = await messages.createMessage(deps.db, userId, input, source, {
      now: deps.clock?.() ?? new Date(),
      allowlist: deps.ums.allowlist,
      ownHosts: [...deps.ums.ownHosts, requestHost],
      quota: deps.quota,
    });
    deps.wake();
    return created;
  };
}

export default async function umsRoutes(app: FastifyInstance, deps: UmsRouteDeps): Promise<void> {
  const { db, config, ums: ctx, wake } = deps;
  const now = () => deps.clock?.() ?? new Date();
  const create = createWith(deps);
  /** The context with the host this request reached the portal by: webhooks may not point there either. */
  const reached = (request: FastifyRequest): UmsContext => ({ ...ctx, ownHosts: [...ctx.ownHosts, request.host] });

  // ---------- channels ----------
  route(app, api.listChannels, async (request) => success(await channels.listChannels(db, ctx, request.user!.id)));
  route(app, api.channelKinds, async () => success(channels.channelKinds(ctx)));
  route(app, api.createChannel, async (request) =>
    success(await channels.createChannel(db, reached(request), request.user!.id, request.body, now())),
  );
  route(app, api.updateChannel, async (request) =>
    success(
      await channels.updateChannel(db, reached(request), request.user!.id, request.params.id, request.body, now()),
    ),
  );
  route(
    app,
    api.resendConfirmation,
    async (request) => {
      await consent.resendConfirmation(db, ctx, request.user!.id, request.params.id, now());
      return success(await channels.getChannel(db, ctx, request.user!.id, request.params.id));
    },
    { rateLimit: { max: 10, timeWindow: '1 minute' } },
  );
  // Public: the secret in the link is the credential (the address's owner may have no account).
  route(
    app,
    api.confirmEmail,
    async (request) => success(await consent.confirmEmail(db, ctx, request.body.token, now())),
    {
      rateLimit: { max: 30, timeWindow: '1 minute' },
    },
  );
  route(app, api.deleteChannel, async (request) => {
    await channels.deleteChannel(db, request.user!.id, request.params.id);
    return SUCCESS;
  });
  route(
    app,
    api.testChannel,
    async (request) =>
      success(await channels.testChannel(db, reached(request), request.user!.id, request.params.id, now())),
    { rateLimit: { max: 10, timeWindow: '1 minute' } },
  );

  // ---------- messages ----------
  route(app, api.createMessage, async (request) => {
    return success(await create(request.user!.id, request.body, 'ui', request.host));
  });
  route(app, api.searchMessages, async (request) =>
    success(await searchMessages(db, request.user!.id, request.query.q)),
  );
  route(app, api.listMessages, async (request) =>
    paged(await messages.listMessages(db, request.user!.id, request.query), request.query),
  );
  route(app, api.getMessage, async (request) => {
    const userId = request.user?.id ?? request.tokenAuth!.userId;
    return success(await messages.getMessage(db, userId, request.params.id));
  });
  route(app, api.markRead, async (request) =>
    success(await messages.markRead(db, request.user!.id, request.params.id, now())),
  );
  route(app, api.markAllRead, async (request) => success(await messages.markRead(db, request.user!.id, 'all', now())));
  route(app, api.resendMessage, async (request) => {
    const data = await messages.resendMessage(db, request.user!.id, request.params.id, now(), deps.quota);
    wake();
    return success(data);
  });
  route(app, api.cancelMessage, async (request) =>
    success(await messages.cancelMessage(db, request.user!.id, request.params.id, now())),
  );
  route(app, api.stats, async (request) => success(await messages.stats(db, request.user!.id, config.PORTAL_TZ)));
  route(app, api.homeSummary, async (request) =>
    success(await homeSummary(db, request.user!.id, request.user!.roles.includes('admin'))),
  );

  // ---------- templates ----------
  route(app, api.listTemplates, async (request) => success(await templates.listTemplates(db, request.user!.id)));
  route(app, api.createTemplate, async (request) =>
    success(await templates.createTemplate(db, request.user!.id, request.body)),
  );
  route(app, api.updateTemplate, async (request) =>
    success(await templates.updateTemplate(db, request.user!.id, request.params.id, request.body)),
  );
  route(app, api.deleteTemplate, async (request) => {
    await templates.deleteTemplate(db, request.user!.id, request.params.id);
    return SUCCESS;
  });

  // ---------- delivery callbacks ----------
  route(app, api.callbackSecret, async (request) =>
    success(await callbacks.callbackSecret(db, ctx.secrets, request.user!.id)),
  );
  route(app, api.rotateCallbackSecret, async (request) =>
    success(await callbacks.rotateCallbackSecret(db, ctx.secrets, request.user!.id)),
  );

  // ---------- the token API ----------
  const send = async (request: EndpointRequest<typeof api.sendGet>) => {
    const auth = request.tokenAuth!;
    await deps.limit(auth.tokenId);
    const header = request.headers['idempotency-key'];
    const input = parseOr400(SendApiInput, {
      ...(typeof header === 'string' ? { idempotencyKey: header } : {}),
      ...(request.query as object),
      ...((request.body as object) ?? {}),
    });
    return success(await create(auth.userId, input, 'api', request.host));
  };
  route(app, api.sendGet, send);
  route(app, api.sendPost, send);
}
