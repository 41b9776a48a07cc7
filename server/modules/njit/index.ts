/**
 * The NJIT module: the student lookup (search, masked detail, audited reveal), roster imports and the
 * audit trail. Background work: the audit trail is pruned to NJIT_AUDIT_RETENTION_DAYS at start and daily.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import { pruneNjit } from './audit';
import njitRoutes from './routes';

const DAY_MS = 86_400_000;

export default fp(
  async function njitModule(app: FastifyInstance, deps: AppDeps) {
    app.scheduler.every('njit.audit-prune', DAY_MS, () => pruneNjit(deps.db, deps.config.NJIT_AUDIT_RETENTION_DAYS));
    await app.register(njitRoutes, deps);
  },
  { name: 'njit', dependencies: ['auth', 'scheduler'] },
);
