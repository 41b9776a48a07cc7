/**
 * Pacing end to end, in real time, on a real server: a script sends 25 messages through the token API
 * to a DingTalk robot that takes 20 a minute (and refuses everything for 10 minutes past that). Its first
 * 20 reach it 1.5 s late, as from a loaded server: the portal still never makes it refuse one, and all
 * 25 are delivered within 90 s.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeDingTalk } from '../../fixtures/fake-dingtalk';
import { enqueue, umsUser, waitFor } from '../../fixtures/ums-client';
import { openTestDatabase, type TestDatabase } from '../helpers';
import { spawnServer } from '../process';
import { TEST_SERVER_ENV } from '../test-database';

test('25 messages to a robot at 20 a minute: all 25 delivered within 90 s, none refused', async () => {
  const fake = await new FakeDingTalk().start();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-paced-'));
  let database: TestDatabase | null = null;
  const dbEnv: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '' };
  if (process.env.TEST_DATABASE_URL) {
    database = await openTestDatabase();
    Object.assign(dbEnv, { DATABASE_URL: database.url!, PORTAL_SECRET: 'paced-test-secret-0123456789' });
  }
  try {
    const server = await spawnServer({
      ...TEST_SERVER_ENV,
      ...dbEnv,
      UMS_WEBHOOK_ALLOWLIST: `${fake.url}/robot/send`,
      UMS_TOKEN_BURST: '0',
      REGISTER_RATE_LIMIT: '0',
      ADMIN_PASSWORD: 'admin-password-1',
    }).ready;
    const { token } = await umsUser(server.url, fake, 'paced', { lagMs: (n) => (n < 20 ? 1_500 : 0) });
    const started = Date.now();
    for (let i = 0; i < 25; i++) await enqueue(server.url, token, `第 ${i + 1} 条`);
    await waitFor(async () => fake.deliveredTo('paced').length === 25 || fake.refusedBy('paced') > 0, '25 deliveries');
    const seconds = (Date.now() - started) / 1000;
    const outcome = { delivered: fake.deliveredTo('paced').length, refused: fake.refusedBy('paced') };
    process.stdout.write(
      `\n[paced send] ${outcome.delivered} of 25 delivered in ${seconds.toFixed(1)} s, ${outcome.refused} refused\n`,
    );
    expect(outcome).toEqual({ delivered: 25, refused: 0 });
    expect(seconds).toBeLessThanOrEqual(90);
    const at = fake.deliveredTo('paced').map((r) => r.at);
    expect(at[20] - at[0]).toBeGreaterThan(60_000);
    server.proc.kill('SIGTERM');
    await server.exited;
  } finally {
    await fake.stop();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
