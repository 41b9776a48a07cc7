/**
 * The NJIT module: the student lookup (search, masked detail, audited reveal), roster imports and the
 * audit trail. Background work: the audit trail is pruned to NJIT_AUDIT_RETENTION_DAYS and students who
 * left more than NJIT_STUDENT_RETENTION_DAYS ago are purged, each at start and daily; uploaded rosters are
 * parsed on a worker thread.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import { TaskPool } from '../../lib/worker-task';
import { pruneNjit } from './audit';
import { workerRosterPreparer } from './imports';
import { scheduledPurge } from './retention';
import njitPolicyRoutes from './policy-routes';
import njitRoutes from './routes';

const DAY_MS = 86_400_000;
/**
 * The old-generation heap a roster's parse may take (its worker's). The sheet is read as a stream and
 * only the valid rows' JSON is kept, so 150,000 students fit; a cap near what is needed also makes the
 * worker collect its garbage early instead of growing the process by the whole allowance.
 */
const ROSTER_PARSE_HEAP_MB = 256;

export default fp(
  async function njitModule(app: FastifyInstance, deps: AppDeps) {
    app.scheduler.every('njit.audit-prune', DAY_MS, () => pruneNjit(deps.db, deps.config.NJIT_AUDIT_RETENTION_DAYS));
    // Every instance runs it, like the pruning: the first erases who is due, the others find nobody left.
    app.scheduler.every('njit.student-purge', DAY_MS, () =>
      scheduledPurge(deps.db, deps.config.NJIT_STUDENT_RETENTION_DAYS),
    );
    // Roster files are parsed and checked on a worker thread, one at a time, with a capped heap.
    const parsers = new TaskPool({ maxHeapMb: ROSTER_PARSE_HEAP_MB, timeoutMs: 120_000 });
    app.addHook('onClose', () => parsers.close());
    await app.register(njitRoutes, { ...deps, prepareRoster: workerRosterPreparer(parsers) });
    await app.register(njitPolicyRoutes, deps);
  },
  { name: 'njit', dependencies: ['auth', 'scheduler', 'metrics'] },
);
