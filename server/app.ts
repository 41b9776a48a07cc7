/**
 * buildApp(deps) assembles the Fastify instance: external plugins first (helmet, cookies, rate limit,
 * OpenAPI), then the app's own (errors, auth), then the module routes, then the UI.
 * Tests build it on an in-memory database and drive it with inject().
 */
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import pkg from '../package.json';
import type { Config } from './config';
import type { DB } from './db/schema';
import { loggerOptions } from './logger';
import authPlugin from './plugins/auth';
import errorsPlugin from './plugins/errors';
import uiPlugin from './plugins/ui';
import healthRoutes from './modules/health/routes';
import njitRoutes from './modules/njit/routes';
import adminRoutes from './modules/user/admin-routes';
import profileRoutes from './modules/user/profile-routes';
import userRoutes from './modules/user/routes';
import umsRoutes from './modules/ums/routes';
import ocsScriptRoutes from './modules/ocs/script-routes';
import { parseAllowlist, type UmsContext } from './modules/ums/channels';
import { pruneMessages } from './modules/ums/messages';
import { DeliveryWorker } from './jobs/ums-delivery';
import type { SecretBox } from './lib/secretbox';
import { BankIndexSync, HitCounter } from './modules/ocs/bank';
import { OcsService } from './modules/ocs/query';
import ocsRoutes from './modules/ocs/routes';
import { SettingsCache } from './modules/ocs/settings';
import { ChargeBatcher } from './modules/ocs/wallet';
import { OcsAiAnswerer } from './modules/ocs/ai/answerer';
import { PreferencesCache } from './modules/ocs/ai/preferences';
import ocsAiRoutes from './modules/ocs/ai/routes';
import ocsFreeRoutes from './modules/ocs/free-routes';
import ocsAdminRoutes from './modules/ocs/admin-routes';
import fastifyFormbody from '@fastify/formbody';
import { tokenCheckRoutes, tokenRoutes } from './modules/user/token-routes';

/** OCS: the bank's fuzzy index, the settings cache and the answering service, shared by its routes. */
async function registerOcs(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const bank = new BankIndexSync(deps.db);
  const settings = new SettingsCache(deps.db);
  const hits = new HitCounter(deps.db);
  const batcher = deps.soleInstance ? new ChargeBatcher(deps.db) : undefined;
  const service = new OcsService({ db: deps.db, bank, settings, hits, batcher });
  app.decorate('ocs', { bank, settings, service, hits });
  app.addHook('onReady', async () => {
    hits.start(5_000, (err) => app.log.warn({ err }, 'ocs hit counts not written'));
    // In the background: 1M questions take tens of seconds, and exact lookups work meanwhile.
    void bank
      .load()
      .then((loaded) => {
        app.log.info({ questions: loaded.rows, ms: loaded.ms }, 'ocs fuzzy index loaded');
        // Only other instances can change the bank behind this one's back.
        if (!deps.soleInstance) {
          bank.start(deps.config.OCS_INDEX_REFRESH_MS, (err) => app.log.warn({ err }, 'ocs index refresh failed'));
        }
      })
      .catch((err) => app.log.error({ err }, 'ocs fuzzy index not loaded: fuzzy matching is off until restart'));
  });
  app.addHook('onClose', async () => {
    bank.stop();
    await hits.stop();
  });
  await app.register(ocsRoutes, { prefix: '/api/ocs', ...deps });
  // OCS part 2: the AI behind the bank and each user's strategy.
  const preferences = new PreferencesCache(deps.db);
  service.ai = new OcsAiAnswerer({
    db: deps.db,
    secrets: deps.secrets,
    bank,
    preferences,
    log: app.log,
    tz: deps.config.PORTAL_TZ,
  });
  service.strategyOf = (userId) => preferences.strategyOf(userId);
  await app.register(ocsAiRoutes, { prefix: '/api/ocs', ...deps, preferences });
  await app.register(ocsFreeRoutes, { prefix: '/api/ocs', ...deps });
  await app.register(ocsAdminRoutes, { prefix: '/api/ocs/admin', ...deps });
}

export interface AppDeps {
  db: Kysely<DB>;
  config: Config;
  /** Encrypts stored secrets (DingTalk webhooks, signing secrets). */
  secrets: SecretBox;
  /** True on the embedded database, where this process is the only instance (see DATA_DIR lock). */
  soleInstance?: boolean;
  /** The UMS worker's clock; tests inject one instead of sleeping. */
  clock?: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    ocs: { bank: BankIndexSync; settings: SettingsCache; service: OcsService; hits: HitCounter };
    umsContext: UmsContext;
    umsWorker: DeliveryWorker;
  }
}

export async function buildApp(deps: AppDeps, opts: { logger?: FastifyServerOptions['logger'] } = {}) {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(deps.config.LOG_LEVEL),
    trustProxy: deps.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"], // antd's CSS-in-JS injects style tags
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false, // set by the TLS-terminating proxy, which knows whether HTTPS is real
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody); // curl -d for the token APIs; session routes still require JSON
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyMultipart, { limits: { fileSize: 2 * 1024 * 1024, files: 1, fields: 5 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Portal API', version: pkg.version, description: '统一门户 HTTP 接口' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  await app.register(errorsPlugin);
  await app.register(authPlugin, deps);

  await app.register(healthRoutes, deps);
  await app.register(userRoutes, { prefix: '/api/user', ...deps });
  await app.register(profileRoutes, { prefix: '/api/user', ...deps });
  await app.register(tokenRoutes, { prefix: '/api/user/tokens', ...deps });
  await app.register(tokenCheckRoutes, { prefix: '/api/token', ...deps });
  await app.register(adminRoutes, { prefix: '/api/user/admin', ...deps });
  await app.register(njitRoutes, { prefix: '/api/njit', ...deps });
  await app.register(ocsScriptRoutes, { prefix: '/api/ocs', ...deps });
  await registerOcs(app, deps);

  const config = deps.config;
  app.decorate('umsContext', {
    secrets: deps.secrets,
    allowlist: parseAllowlist(config.UMS_WEBHOOK_ALLOWLIST),
    timeoutMs: config.UMS_SEND_TIMEOUT_MS,
  } satisfies UmsContext);
  app.decorate(
    'umsWorker',
    new DeliveryWorker({
      db: deps.db,
      ums: app.umsContext,
      log: app.log,
      maxAttempts: config.UMS_MAX_ATTEMPTS,
      retryBaseSeconds: config.UMS_RETRY_BASE_SECONDS,
      robotPerMinute: config.UMS_ROBOT_PER_MINUTE,
      clock: deps.clock,
    }),
  );
  await app.register(umsRoutes, deps);
  if (config.UMS_WORKER) {
    let prune: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      if (deps.soleInstance) await app.umsWorker.recoverOrphans();
      app.umsWorker.start();
      const runPrune = () =>
        pruneMessages(deps.db, config.UMS_RETENTION_DAYS).catch((err) => app.log.error({ err }, 'ums prune failed'));
      void runPrune();
      prune = setInterval(runPrune, 86_400_000);
      prune.unref();
    });
    app.addHook('onClose', async () => {
      if (prune) clearInterval(prune);
      await app.umsWorker.stop();
    });
  }

  await app.register(uiPlugin, { uiDir: deps.config.uiDir });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
