/** Dev mocks of the health probes: GET /api/health, /api/health/live and /api/health/ready. */
import * as healthApi from '../src/contract/api/health';
import { defineMocks, on } from './_lib/endpoint';

export default defineMocks(
  on(healthApi.health, (_req, res) =>
    res.json({ success: true, data: { status: 'ok', database: 'ok', version: 'mock', uptimeSeconds: 1 } }),
  ),
  on(healthApi.live, (_req, res) =>
    res.json({ success: true, data: { status: 'ok', version: 'mock', uptimeSeconds: 1 } }),
  ),
  on(healthApi.ready, (_req, res) =>
    res.json({
      success: true,
      data: {
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', ui: 'ok' },
        failed: [],
        pendingMigrations: [],
        version: 'mock',
      },
    }),
  ),
);
