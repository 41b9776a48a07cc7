/**
 * The OCS module: the question bank and its fuzzy index, the OCS-script query API, the points wallet,
 * free claims and redeem codes, AI answering and the administrators' pages. Built here, in order: the
 * bank index, settings, preferences and the AI answerer, then the answering service that uses them.
 *
 * Background work: the in-memory bank (the fuzzy index, and the exact index that answers exact hits
 * without a database read) loads at start (1M questions take tens of seconds; exact lookups go to the
 * database meanwhile) and, with several instances on one PostgreSQL, picks up other instances' questions
 * every OCS_INDEX_REFRESH_MS; hit counts and the 未收录 counts are written every 5 s; expired import
 * previews are swept.
 *
 * Layout, one concern per folder, each with its routes file: bank/ (questions: normalization, storage,
 * exact and fuzzy matching, the fuzzy index, import, export, administration), wallet/ (balance, charges,
 * bills, free claims, redeem codes), query/ (the answering service, single and batch, confidence, the
 * query log, the user pages), review/ (reports of wrong answers, their review, the 未收录 queue),
 * upstream/ (other banks asked on a miss), ai/ (models and AI answering), admin/ (OCS users and
 * settings), script/ (the userscript and the OCS subscription). This file only builds the parts and
 * composes them.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import { TaskPool } from '../../lib/worker-task';
import ocsAdminRoutes from './admin/routes';
import { SettingsCache } from './admin/settings';
import { OcsAiAnswerer } from './ai/answerer';
import { PreferencesCache } from './ai/preferences';
import ocsAiRoutes from './ai/routes';
import { HitCounter } from './bank/hit-counter';
import { BankImporter, workerBankPreparer } from './bank/importer';
import { BankIndexSync } from './bank/index-sync';
import ocsBankRoutes from './bank/routes';
import { ocsQueryCounter } from './query/metrics';
import ocsRoutes from './query/routes';
import { OcsService } from './query/service';
import { MissRecorder } from './review/misses';
import ocsReviewRoutes from './review/routes';
import { UpstreamAsker } from './upstream/asker';
import ocsUpstreamRoutes from './upstream/routes';
import ocsScriptRoutes from './script/routes';
import { ChargeBatcher } from './wallet/charge';
import ocsFreeRoutes from './wallet/routes';

declare module 'fastify' {
  interface FastifyInstance {
    ocs: {
      bank: BankIndexSync;
      settings: SettingsCache;
      service: OcsService;
      hits: HitCounter;
      misses: MissRecorder;
    };
  }
}

const HIT_FLUSH_MS = 5_000;
const IMPORT_SWEEP_MS = 60_000;
/**
 * The old-generation heap a bank file's parse may take (its worker's): a 50 MB file of 150,000
 * questions needs about half of it; more is refused with 413 instead of growing the process.
 */
const BANK_PARSE_HEAP_MB = 256;

export default fp(
  async function ocsModule(app: FastifyInstance, deps: AppDeps) {
    const { db, config } = deps;
    const bank = new BankIndexSync(db);
    const settings = new SettingsCache(db);
    const hits = new HitCounter(db);
    const misses = new MissRecorder(db, config.OCS_MISSES_NOTIFY_AT);
    const upstreams = new UpstreamAsker(db, deps.secrets, config.PORTAL_TZ, config.ADMIN_URL_ALLOWLIST, app.log);
    const preferences = new PreferencesCache(db);
    const countQuery = ocsQueryCounter(app.metrics);
    const ai = new OcsAiAnswerer({
      db,
      secrets: deps.secrets,
      bank,
      preferences,
      log: app.log,
      tz: config.PORTAL_TZ,
      allowlist: config.ADMIN_URL_ALLOWLIST,
    });
    const service = new OcsService({
      db,
      bank,
      settings,
      hits,
      // Charges that arrive together share one statement and one commit (both databases); answers
      // from memory carry the bank's generation they were read at, so the charge need not re-read them.
      batcher: new ChargeBatcher(db, undefined, bank.exact),
      ai,
      preferencesOf: async (userId) => {
        const p = await preferences.get(userId);
        return { strategy: p.strategy, minConfidence: p.minConfidence };
      },
      log: app.log,
      misses,
      upstreams,
      onOutcome: countQuery,
      limiter: (spec) => app.limits.create(spec),
    });
    // Bank files are parsed and checked on a worker thread, one at a time, with a capped heap.
    const preparers = new TaskPool({ maxHeapMb: BANK_PARSE_HEAP_MB, timeoutMs: 120_000 });
    app.addHook('onClose', () => preparers.close());
    const importer = new BankImporter({ db, index: bank.index, log: app.log, prepare: workerBankPreparer(preparers) });
    app.decorate('ocs', { bank, settings, service, hits, misses });

    const load = () =>
      bank.load().then(
        (loaded) => app.log.info({ questions: loaded.rows, ms: loaded.ms }, 'ocs fuzzy index loaded'),
        (err) => app.log.error({ err }, 'ocs fuzzy index not loaded: fuzzy matching is off until restart'),
      );
    if (deps.soleInstance) {
      app.scheduler.atStart('ocs.index-load', load);
    } else {
      // Only other instances can change the bank behind this one's back; they say so when they write.
      const refresh = app.scheduler.every('ocs.index-refresh', config.OCS_INDEX_REFRESH_MS, () => bank.refresh(), {
        setup: load,
      });
      bank.onOthersWrote(() => refresh.wake());
    }
    app.scheduler.every('ocs.hit-flush', HIT_FLUSH_MS, () => hits.flush(), { teardown: () => hits.flush() });
    app.scheduler.every('ocs.miss-flush', HIT_FLUSH_MS, () => misses.flush(), { teardown: () => misses.flush() });
    app.scheduler.every('ocs.import-sweep', IMPORT_SWEEP_MS, async () => importer.sweep());
    app.addHook('onClose', () => importer.close()); // running imports finish before the database closes

    await app.register(ocsScriptRoutes, deps);
    await app.register(ocsRoutes, { ...deps, countQuery, importCounts: () => importer.counts() });
    await app.register(ocsAiRoutes, { ...deps, preferences });
    await app.register(ocsFreeRoutes, deps);
    await app.register(ocsAdminRoutes, deps);
    await app.register(ocsBankRoutes, { ...deps, importer });
    await app.register(ocsReviewRoutes, { ...deps, countQuery });
    await app.register(ocsUpstreamRoutes, { ...deps, upstreams });
  },
  { name: 'ocs', dependencies: ['limits', 'auth', 'scheduler', 'metrics'] },
);
