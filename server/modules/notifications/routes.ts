/** HTTP layer of the notification centre: a signed-in user's own notifications only. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/notifications';
import type { AppDeps } from '../../deps';
import { paged, success } from '../../http/reply';
import { route } from '../../http/route';
import * as store from './service';

export default async function notificationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  route(app, api.listNotifications, async (request) =>
    paged(await store.listNotifications(db, request.user!.id, request.query), request.query),
  );

  route(app, api.unreadCount, async (request) => success({ unread: await store.unreadCount(db, request.user!.id) }));

  route(app, api.markRead, async (request) => success(await store.markRead(db, request.user!.id, request.body.ids)));

  route(app, api.markAllRead, async (request) => success(await store.markRead(db, request.user!.id, null)));
}
