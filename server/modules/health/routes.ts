/** Readiness: the process answers and the database answers. */
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Health } from '../../../src/contract';
import type { AppDeps } from '../../app';
import pkg from '../../../package.json';

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: { tags: ['system'], summary: '健康检查', response: { 200: Health, 503: Health } },
    },
    async (_request, reply) => {
      let database: 'ok' | 'down' = 'ok';
      try {
        await sql`select 1`.execute(db);
      } catch {
        database = 'down';
      }
      const body = {
        success: true as const,
        data: {
          status: database === 'ok' ? ('ok' as const) : ('degraded' as const),
          database,
          version: pkg.version,
          uptimeSeconds: Math.round(process.uptime()),
        },
      };
      return reply.status(database === 'ok' ? 200 : 503).send(body);
    },
  );
};

export default routes;
