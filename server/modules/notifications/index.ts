/**
 * The notification centre: what the portal tells each user about their own things (service.ts, which
 * other modules call to notify), their list, unread count and marking read (routes.ts), and a daily
 * cleanup of read notifications past NOTIFICATIONS_RETENTION_DAYS, and an hourly look for personal tokens
 * that expire within a week (their owners are told once).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import notificationRoutes from './routes';
import { pruneRead, tellExpiringTokens } from './service';

/** What other modules call to tell someone (inside the transaction of the change). */
export { notify, notifyAdmins, type NewNotification } from './service';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export default fp(
  async function notificationsModule(app: FastifyInstance, deps: AppDeps) {
    await app.register(notificationRoutes, deps);
    app.scheduler.every('notifications.prune-read', DAY_MS, async () => {
      await pruneRead(deps.db, deps.config.NOTIFICATIONS_RETENTION_DAYS);
    });
    app.scheduler.every('notifications.token-expiry', HOUR_MS, async () => {
      await tellExpiringTokens(deps.db);
    });
  },
  { name: 'notifications', dependencies: ['auth', 'scheduler'] },
);
