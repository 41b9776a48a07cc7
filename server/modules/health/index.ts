/**
 * The health module: the probes (GET /api/health, /api/health/live, /api/health/ready) and the
 * database's metrics (pool or PGlite queue).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import { registerDatabaseMetrics } from './metrics';
import healthRoutes from './routes';

export default fp(
  async function healthModule(app: FastifyInstance, deps: AppDeps) {
    registerDatabaseMetrics(app.metrics, deps.db);
    await app.register(healthRoutes, deps);
  },
  { name: 'health', dependencies: ['auth', 'metrics'] },
);
