/**
 * The embedded database's autovacuum (server/db/maintenance.ts) as a background job: every
 * DB_MAINTENANCE_MS on PGlite; nothing on PostgreSQL, whose own autovacuum does it.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { Counter } from 'prom-client';
import { maintain } from '../db/maintenance';
import { poolStatsOf } from '../db/pool-stats';
import type { DB } from '../db/schema';

export interface MaintenanceOptions {
  db: Kysely<DB>;
  /** DB_MAINTENANCE_MS; 0 turns it off. */
  everyMs: number;
}

export default fp(
  async function maintenancePlugin(app: FastifyInstance, opts: MaintenanceOptions) {
    if (opts.everyMs === 0 || poolStatsOf(opts.db)?.().kind !== 'pglite') return;
    const registers = [app.metrics];
    const runs = new Counter({
      name: 'portal_db_maintenance_total',
      help: 'VACUUM and ANALYZE statements run on the embedded database by its maintenance job, by kind.',
      labelNames: ['work'],
      registers,
    });
    const seconds = new Counter({
      name: 'portal_db_maintenance_seconds_total',
      help: 'Time the embedded database spent in its maintenance job (other statements wait meanwhile).',
      registers,
    });
    app.scheduler.every('db.maintenance', opts.everyMs, async () => {
      for (const d of await maintain(opts.db)) {
        runs.inc({ work: d.work });
        seconds.inc(d.ms / 1000);
        app.log.info({ table: d.table, work: d.work, ms: d.ms }, 'database maintenance');
      }
    });
  },
  { name: 'db-maintenance', dependencies: ['scheduler', 'metrics'] },
);
