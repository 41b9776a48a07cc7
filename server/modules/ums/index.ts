/**
 * The UMS module: channels of five kinds (DingTalk, WeCom, Feishu, generic webhook, e-mail through
 * SMTP_URL), the durable outbox and its delivery worker, statistics, the token API for scripts and the
 * ServerChan- and PushPlus-compatible endpoints.
 * Background work: delivery rounds (woken when a message is queued) and the daily pruning of old
 * messages, both only where UMS_WORKER is on.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import { parseAllowlist, syncPaceKeys, type UmsContext } from './channels';
import { DeliveryWorker, type TellOwner } from './delivery';
import type { TellAdmins } from './failing';
import { createMailer } from './kinds/email';
import { ownHostsOf } from './kinds/webhook';
import { pruneMessages } from './messages';
import { umsMetrics } from './metrics';
import compatRoutes from './compat-routes';
import umsRoutes from './routes';
import { sendLimit, userQuota } from './send-limit';

const DAY_MS = 86_400_000;
/** How often the worker looks for due messages when nothing wakes it. */
const POLL_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests drive delivery rounds with their own clock (`app.umsWorker.runOnce()`). */
    umsWorker: DeliveryWorker;
  }
}

/** What the notification centre forwards through (its notifications queued on a user's channel). */
export { forwardTarget, queueForwarded } from './forward';

export default fp(
  async function umsModule(app: FastifyInstance, deps: AppDeps & { notify: TellOwner; notifyAdmins: TellAdmins }) {
    const { db, config } = deps;
    const ums: UmsContext = {
      secrets: deps.secrets,
      allowlist: parseAllowlist(config.UMS_WEBHOOK_ALLOWLIST),
      // Read when used: the port is known once the server listens (PORT 0 picks one).
      get ownHosts() {
        const address = app.server.address();
        const port = typeof address === 'object' && address ? address.port : null;
        return ownHostsOf(config.PUBLIC_URL, config.HOST, port);
      },
      consent: {
        baseUrl: config.PUBLIC_URL ?? null,
        newAddressesPerDay: config.UMS_EMAIL_NEW_ADDRESSES_PER_DAY,
        timeZone: config.PORTAL_TZ,
      },
      timeoutMs: config.UMS_SEND_TIMEOUT_MS,
      mailer: config.SMTP_URL ? createMailer(config.SMTP_URL, config.SMTP_FROM, config.UMS_SEND_TIMEOUT_MS) : null,
      pacing: {
        robotPerMinute: config.UMS_ROBOT_PER_MINUTE,
        feishuPerMinute: config.UMS_FEISHU_PER_MINUTE,
        emailPerMinute: config.UMS_EMAIL_PER_MINUTE,
      },
    };
    app.addHook('onClose', async () => ums.mailer?.transport.close());
    const metrics = umsMetrics(app.metrics, db, app.log);
    const worker = new DeliveryWorker({
      db,
      ums,
      log: app.log,
      maxAttempts: config.UMS_MAX_ATTEMPTS,
      failingNotifyAt: config.UMS_CHANNEL_FAILING_NOTIFY_AT,
      retryBaseSeconds: config.UMS_RETRY_BASE_SECONDS,
      timeZone: config.PORTAL_TZ,
      clock: deps.clock,
      onOutcome: metrics.delivery,
      notify: deps.notify,
      notifyAdmins: deps.notifyAdmins,
    });
    app.decorate('umsWorker', worker);

    let wake = () => undefined as void;
    if (config.UMS_WORKER) {
      const delivery = app.scheduler.every('ums.delivery', POLL_MS, () => worker.runOnce(), {
        setup: async () => {
          await syncPaceKeys(db, ums.secrets);
          // Alone on the database, whatever was being sent when the process died is this instance's to retry.
          if (deps.soleInstance) await worker.recoverOrphans();
        },
      });
      wake = () => delivery.wake();
      app.scheduler.every('ums.prune', DAY_MS, () => pruneMessages(db, config.UMS_RETENTION_DAYS));
    }

    const routeDeps = {
      ...deps,
      ums,
      wake: () => wake(),
      limit: sendLimit(app, config),
      quota: userQuota(app, config),
    };
    await app.register(umsRoutes, routeDeps);
    // ServerChan's /<sendkey>.send and PushPlus's /send, outside /api at the paths those services fixed.
    await app.register(compatRoutes, routeDeps);
  },
  { name: 'ums', dependencies: ['limits', 'auth', 'scheduler', 'metrics'] },
);
