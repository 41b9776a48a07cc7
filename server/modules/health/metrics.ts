/**
 * Database metrics, read at each scrape: on PostgreSQL the pg pool's connections (total, idle) and the
 * queries waiting for one; on the embedded database the statements queued for the PGlite worker.
 */
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import { poolStatsOf } from '../../db/pool-stats';
import type { DB } from '../../db/schema';

export function registerDatabaseMetrics(registry: Registry, db: Kysely<DB>): void {
  const read = poolStatsOf(db);
  if (!read) return;
  const registers = [registry];
  if (read().kind === 'postgres') {
    const pool = (name: string, help: string, pick: (s: { total: number; idle: number; waiting: number }) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const s = read();
          if (s.kind === 'postgres') this.set(pick(s));
        },
      });
    pool('portal_db_pool_total_connections', 'Connections the pg pool holds (idle and in use).', (s) => s.total);
    pool('portal_db_pool_idle_connections', 'Connections of the pg pool not in use.', (s) => s.idle);
    pool('portal_db_pool_waiting_clients', 'Queries waiting for a connection of the pg pool.', (s) => s.waiting);
  } else {
    new Gauge({
      name: 'portal_db_pglite_pending_requests',
      help: 'Statements sent to the embedded database (PGlite worker) and not answered yet: its queue depth.',
      registers,
      collect() {
        const s = read();
        if (s.kind === 'pglite') this.set(s.pending);
      },
    });
  }
}
