/**
 * The notification centre: what the portal tells each user about their own things (service.ts, which
 * other modules call to notify), their list, unread count and marking read (routes.ts), and a daily
 * cleanup of read notifications past NOTIFICATIONS_RETENTION_DAYS, and an hourly look for personal tokens
 * that expire within a week (their owners are told once), and live delivery to the open tabs of their
 * owners (live.ts) with its heartbeat.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { notifierOf } from '../../db/notify';
import type { AppDeps } from '../../deps';
import { LiveHub } from './live';
import notificationRoutes from './routes';
import { pruneRead, tellExpiringTokens } from './service';

/** What other modules call to tell someone (inside the transaction of the change). */
export { notify, notifyAdmins, type NewNotification } from './service';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export default fp(
  async function notificationsModule(app: FastifyInstance, deps: AppDeps) {
    const hub = new LiveHub(deps.db, notifierOf(deps.db), (cookie) => app.identity.resolveSession(cookie), app.log);
    await hub.start();
    new Gauge({
      name: 'portal_notification_streams',
      help: "Notification event streams (the bell's live connections, one per open tab) open on this instance.",
      registers: [app.metrics],
      collect() {
        this.set(hub.size);
      },
    });
    await app.register(notificationRoutes, { deps, hub });
    app.scheduler.every(
      'notifications.stream-heartbeat',
      deps.config.NOTIFICATIONS_STREAM_HEARTBEAT_SECONDS * 1000,
      () => hub.heartbeat(),
    );
    // Open streams would hold the server's close; the browsers reconnect (to another instance, if any).
    app.addHook('preClose', async () => hub.endAll());
    app.scheduler.every('notifications.prune-read', DAY_MS, async () => {
      await pruneRead(deps.db, deps.config.NOTIFICATIONS_RETENTION_DAYS);
    });
    app.scheduler.every('notifications.token-expiry', HOUR_MS, async () => {
      await tellExpiringTokens(deps.db);
    });
  },
  { name: 'notifications', dependencies: ['auth', 'scheduler', 'metrics'] },
);
