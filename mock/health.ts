/** Dev mock of GET /api/health, typed by src/contract. */
import type { Health } from '../src/contract';

export default {
  'GET /api/health': (_req: unknown, res: { json(body: unknown): void }) => {
    const body: Health = { success: true, data: { status: 'ok', database: 'ok', version: 'mock', uptimeSeconds: 1 } };
    res.json(body);
  },
};
