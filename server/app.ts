/**
 * buildApp(deps) composes the Fastify instance from plugins: third-party ones, then the app's own
 * (error envelope, background-job scheduler, access checks), then one plugin per module, then the UI.
 * Each module owns its routes, timers and workers (server/modules/<module>/index.ts).
 * Tests build it on an in-memory database and drive it with inject().
 */
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps';
import { loggerOptions } from './logger';
import healthModule from './modules/health';
import njitModule from './modules/njit';
import ocsModule from './modules/ocs';
import umsModule from './modules/ums';
import userModule, { userIdentity } from './modules/user';
import authPlugin from './plugins/auth';
import errorsPlugin from './plugins/errors';
import externalPlugins from './plugins/external';
import uiPlugin from './plugins/ui';
import schedulerPlugin from './scheduler';
import textPlugin from './plugins/text';

export type { AppDeps };

export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['logger'] } = {}) {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(deps.config.LOG_LEVEL),
    trustProxy: deps.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(externalPlugins);
  await app.register(errorsPlugin);
  await app.register(textPlugin);
  await app.register(schedulerPlugin);
  await app.register(authPlugin, { identity: userIdentity(deps) });

  await app.register(healthModule, deps);
  await app.register(userModule, deps);
  await app.register(njitModule, deps);
  await app.register(ocsModule, deps);
  await app.register(umsModule, deps);

  await app.register(uiPlugin, { uiDir: deps.config.uiDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
