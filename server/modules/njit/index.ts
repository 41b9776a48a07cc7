/**
 * The NJIT module: the student lookup (search, masked detail, audited reveal), roster imports and the
 * audit trail. Background work: the audit trail is pruned to NJIT_AUDIT_RETENTION_DAYS at start and daily;
 * uploaded rosters are parsed on a worker thread.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import { TaskPool } from '../../lib/worker-task';
import { pruneNjit } from './audit';
import { workerRosterParser } from './imports';
import njitRoutes from './routes';

const DAY_MS = 86_400_000;

export default fp(
  async function njitModule(app: FastifyInstance, deps: AppDeps) {
    app.scheduler.every('njit.audit-prune', DAY_MS, () => pruneNjit(deps.db, deps.config.NJIT_AUDIT_RETENTION_DAYS));
    // Roster files are parsed on a worker thread, one at a time, with a capped heap.
    const parsers = new TaskPool({ maxHeapMb: 768, timeoutMs: 120_000 });
    app.addHook('onClose', () => parsers.close());
    await app.register(njitRoutes, { ...deps, parseRoster: workerRosterParser(parsers) });
  },
  { name: 'njit', dependencies: ['auth', 'scheduler', 'metrics'] },
);
