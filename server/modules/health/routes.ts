/** Readiness: the process answers and the database answers. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import * as api from '@contract/api/health';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import pkg from '../../../package.json';

export default async function healthRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  route(app, api.health, async (_request, reply) => {
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
  });
}
