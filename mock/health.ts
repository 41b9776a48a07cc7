/** Dev mock of GET /api/health. */
import * as healthApi from '../src/contract/api/health';
import { defineMocks, on } from './_lib/endpoint';

export default defineMocks(
  on(healthApi.health, (_req, res) =>
    res.json({ success: true, data: { status: 'ok', database: 'ok', version: 'mock', uptimeSeconds: 1 } }),
  ),
);
