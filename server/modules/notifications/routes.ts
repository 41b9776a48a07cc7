/** HTTP layer of the notification centre: a signed-in user's own notifications only. */
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/notifications';
import type { AppDeps } from '../../deps';
import { paged, success } from '../../http/reply';
import { route } from '../../http/route';
import { SESSION_COOKIE } from '../../plugins/auth';
import { formatEvent, type LiveHub, type LiveStream } from './live';
import * as preferences from './preferences';
import * as store from './service';

/** How long a browser waits before reconnecting a dropped stream (EventSource's `retry`). */
const RECONNECT_MS = 5_000;

export default async function notificationRoutes(
  app: FastifyInstance,
  { deps, hub }: { deps: AppDeps; hub: LiveHub },
): Promise<void> {
  const { db } = deps;

  route(app, api.listNotifications, async (request) =>
    paged(await store.listNotifications(db, request.user!.id, request.query), request.query),
  );

  route(app, api.unreadCount, async (request) => success({ unread: await store.unreadCount(db, request.user!.id) }));

  route(app, api.markRead, async (request) => success(await store.markRead(db, request.user!.id, request.body.ids)));

  route(app, api.markAllRead, async (request) => success(await store.markRead(db, request.user!.id, null)));

  route(app, api.getPreferences, async (request) => success(await preferences.getPreferences(db, request.user!)));

  route(app, api.putPreferences, async (request) =>
    success(await preferences.putPreferences(db, request.user!, request.body)),
  );

  route(app, api.stream, async (request, reply) => {
    const user = request.user!;
    // Before the answer starts, so a failure is still an ordinary error answer.
    const unread = await store.unreadCount(db, user.id);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      // nginx passes it on as it comes instead of buffering it (deploy/nginx/portal.conf says so too).
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.write(`retry: ${RECONNECT_MS}\n`);
    res.write(formatEvent({ event: 'unread', data: { unread } }));
    const stream: LiveStream = {
      userId: user.id,
      session: request.cookies[SESSION_COOKIE]!,
      write: (chunk) => void res.write(chunk),
      end: () => void res.end(),
    };
    hub.open(stream);
    res.on('close', () => hub.close(stream));
    return reply;
  });
}
