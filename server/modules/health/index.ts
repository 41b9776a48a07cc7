/** The health module: GET /api/health. */
import fp from 'fastify-plugin';
import healthRoutes from './routes';

export default fp(healthRoutes, { name: 'health', dependencies: ['auth'] });
