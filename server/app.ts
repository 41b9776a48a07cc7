/**
 * buildApp(deps) composes the Fastify instance from plugins: third-party ones, then the app's own
 * (request ids, error envelope, background-job scheduler, access checks, metrics), then one plugin per
 * module, then the UI.
 * Each module owns its routes, timers and workers (server/modules/<module>/index.ts).
 * Tests build it on an in-memory database and drive it with inject().
 */
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps';
import { loggerOptions } from './logger';
import healthModule from './modules/health';
import njitModule from './modules/njit';
import notificationsModule, { notify, notifyAdmins } from './modules/notifications';
import ocsModule from './modules/ocs';
import umsModule from './modules/ums';
import userModule, { userIdentity } from './modules/user';
import authPlugin from './plugins/auth';
import errorsPlugin, { frameworkErrors } from './plugins/errors';
import externalPlugins from './plugins/external';
import metricsPlugin from './plugins/metrics';
import requestIdPlugin, { requestIdOptions } from './plugins/request-id';
import uiPlugin from './plugins/ui';
import schedulerPlugin from './scheduler';
import textPlugin from './plugins/text';
import proxyCheckPlugin from './plugins/proxy-check';
import limitsPlugin from './plugins/limits';
import maintenancePlugin from './plugins/maintenance';
import { trustProxyOption } from './lib/trust-proxy';

export type { AppDeps };

export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['logger'] } = {}) {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(deps.config.LOG_LEVEL),
    trustProxy: trustProxyOption(deps.config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    frameworkErrors, // the router's own refusals (bad %-escapes, over-long path parameters), as envelopes
    // Scripts written against `/api/x/` and `/api/x` both keep working: every route answers both forms.
    routerOptions: { ignoreTrailingSlash: true },
    ...requestIdOptions(deps.config.TRUST_PROXY),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestIdPlugin);
  await app.register(externalPlugins);
  await app.register(errorsPlugin);
  await app.register(textPlugin);
  await app.register(proxyCheckPlugin, { trustProxy: deps.config.TRUST_PROXY });
  await app.register(schedulerPlugin);
  await app.register(limitsPlugin, {
    db: deps.db,
    soleInstance: !!deps.soleInstance,
    redisUrl: deps.config.REDIS_URL,
  });
  await app.register(authPlugin, { identity: userIdentity(deps) });
  await app.register(metricsPlugin, { token: deps.config.METRICS_TOKEN, allow: deps.config.METRICS_ALLOW });
  await app.register(maintenancePlugin, { db: deps.db, everyMs: deps.config.DB_MAINTENANCE_MS });

  await app.register(healthModule, deps);
  await app.register(notificationsModule, deps);
  await app.register(userModule, deps);
  await app.register(njitModule, deps);
  await app.register(ocsModule, deps);
  // The UMS worker tells owners of failed messages through the notification centre, which itself forwards
  // through UMS: notify() and notifyAdmins() are handed in here, so the modules' imports point one way only.
  await app.register(umsModule, { ...deps, notify, notifyAdmins });

  await app.register(uiPlugin, { uiDir: deps.config.uiDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
