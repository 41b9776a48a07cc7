/**
 * Starts the portal exactly as a user would (`node scripts/start.mjs`, which builds the UI when stale)
 * on a fresh DATA_DIR and PORT=0, and shares its URL with the tests through the environment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer } from '../server/process';

export const ADMIN_PASSWORD = 'e2e-admin-password';

export default async function globalSetup(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const started = Date.now();
  const server = spawnServer({ DATA_DIR: dataDir, ADMIN_PASSWORD, REGISTER_RATE_LIMIT: '0', DATABASE_URL: '' }, [
    path.resolve(__dirname, '../../scripts/start.mjs'),
  ]);
  // jest runs the teardown when the run ends; a run that is interrupted must not leave the portal behind.
  process.once('exit', () => server.proc.kill('SIGKILL'));
  const ready = await server.ready;
  process.env.E2E_BASE_URL = ready.url;
  process.env.E2E_ADMIN_PASSWORD = ADMIN_PASSWORD;
  process.stdout.write(`\n[e2e] portal up at ${ready.url} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  (globalThis as { __E2E__?: unknown }).__E2E__ = { proc: server.proc, exited: server.exited, dataDir };
}
