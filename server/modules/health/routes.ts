/**
 * Probes. `GET /api/health`: the process and the database answer (kept as it was for existing callers).
 * `GET /api/health/live`: the process answers, nothing else is touched (a liveness probe restarts on
 * failure, so a database outage must not fail it). `GET /api/health/ready`: this instance can serve —
 * the database answers, every migration of this build is applied, the UI is built — or 503 naming the
 * checks that failed (a readiness probe takes the instance out of rotation).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { ReadinessCheck } from '@contract';
import * as api from '@contract/api/health';
import { pendingMigrations } from '../../db/database';
import type { AppDeps } from '../../deps';
import { route } from '../../http/route';
import pkg from '../../../package.json';

export default async function healthRoutes(app: FastifyInstance, { db, config }: AppDeps): Promise<void> {
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

  route(app, api.live, async () => ({
    success: true as const,
    data: { status: 'ok' as const, version: pkg.version, uptimeSeconds: Math.round(process.uptime()) },
  }));

  // Once every migration is applied it stays so (migrations are never undone): stop asking.
  let migrated = false;
  route(app, api.ready, async (request, reply) => {
    let database: 'ok' | 'down' = 'ok';
    try {
      await sql`select 1`.execute(db);
    } catch {
      database = 'down';
    }
    let migrations: 'ok' | 'pending' | 'unknown' = migrated ? 'ok' : 'unknown';
    let pending: string[] = [];
    if (!migrated && database === 'ok') {
      try {
        pending = await pendingMigrations(db);
        migrations = pending.length === 0 ? 'ok' : 'pending';
        migrated = pending.length === 0;
      } catch (err) {
        request.log.warn({ err }, 'readiness: the applied migrations could not be read');
      }
    }
    const ui = fs.existsSync(path.join(config.uiDir, 'index.html')) ? ('ok' as const) : ('missing' as const);
    const failed: ReadinessCheck[] = [];
    if (database !== 'ok') failed.push('database');
    if (migrations !== 'ok') failed.push('migrations');
    if (ui !== 'ok') failed.push('ui');
    return reply.status(failed.length ? 503 : 200).send({
      success: true as const,
      data: {
        status: failed.length ? ('not_ready' as const) : ('ready' as const),
        checks: { database, migrations, ui },
        failed,
        pendingMigrations: pending,
        version: pkg.version,
      },
    });
  });
}
