/**
 * The outbox under real processes: SIGKILL with 500 messages queued loses nothing, and two
 * instances on one PostgreSQL deliver 1,000 messages exactly once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeDingTalk } from '../../fixtures/fake-dingtalk';
import { call, enqueue, umsUser, waitFor } from '../../fixtures/ums-client';
import { openTestDatabase } from '../helpers';
import { spawnServer } from '../process';

const env = (fake: FakeDingTalk) => ({
  UMS_WEBHOOK_ALLOWLIST: `${fake.url}/robot/send`,
  UMS_ROBOT_PER_MINUTE: '0',
  UMS_TOKEN_PER_MINUTE: '100000',
  UMS_TOKEN_BURST: '0',
  UMS_SEND_TIMEOUT_MS: '3000',
  REGISTER_RATE_LIMIT: '0',
  ADMIN_PASSWORD: 'admin-password-1',
  LOG_LEVEL: 'info',
});

function countBy(fake: FakeDingTalk, robot: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of fake.deliveredTo(robot)) counts.set(r.text, (counts.get(r.text) ?? 0) + 1);
  return counts;
}

const pgliteOnly = process.env.TEST_DATABASE_URL ? describe.skip : describe;
const postgresOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

pgliteOnly('SIGKILL with 500 messages queued', () => {
  test('after a restart every message ends delivered, duplicates only for the in-flight few', async () => {
    const fake = await new FakeDingTalk().start();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ums-'));
    try {
      const first = await spawnServer({ ...env(fake), DATA_DIR: dataDir, DATABASE_URL: '' }).ready;
      const { session, token } = await umsUser(first.url, fake, 'durable', { delayMs: 30 });
      const N = 500;
      for (let i = 0; i < N; i += 25) {
        await Promise.all(Array.from({ length: 25 }, (_, j) => enqueue(first.url, token, `msg-${i + j}`)));
      }
      await waitFor(async () => fake.deliveredTo('durable').length >= 60, 'the first deliveries');
      first.proc.kill('SIGKILL');
      await first.exited;
      const beforeRestart = fake.deliveredTo('durable').length;
      expect(beforeRestart).toBeLessThan(N); // most were still queued when it died

      const second = await spawnServer({ ...env(fake), DATA_DIR: dataDir, DATABASE_URL: '' }).ready;
      const s2 = { ...session, url: second.url };
      await waitFor(
        async () => (await call(s2, 'GET', '/api/ums/stats')).data.byStatus.delivered === N,
        'all delivered',
      );
      const stats = (await call(s2, 'GET', '/api/ums/stats')).data;
      expect(stats.byStatus).toEqual({ delivered: N });

      const counts = countBy(fake, 'durable');
      expect(counts.size).toBe(N);
      const duplicated = [...counts.values()].filter((n) => n > 1);
      // Only messages in flight at the kill (at most the worker's concurrency, 8) may arrive twice.
      expect(duplicated.length).toBeLessThanOrEqual(8);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
      second.proc.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    } finally {
      await fake.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

postgresOnly('two instances on one PostgreSQL', () => {
  test('1,000 messages, each delivered exactly once', async () => {
    const fake = await new FakeDingTalk().start();
    const database = await openTestDatabase();
    const shared = { ...env(fake), DATABASE_URL: database.url!, PORTAL_SECRET: 'shared-secret-for-both-instances' };
    const a = await spawnServer({ ...shared, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-a-')) }).ready;
    const b = await spawnServer({ ...shared, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-b-')) }).ready;
    try {
      const { session, token } = await umsUser(a.url, fake, 'twin', { delayMs: 30 });
      const N = 1000;
      for (let i = 0; i < N; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) => enqueue((i + j) % 2 ? a.url : b.url, token, `twin-${i + j}`)),
        );
      }
      await waitFor(
        async () => (await call(session, 'GET', '/api/ums/stats')).data.byStatus.delivered === N,
        'all delivered',
        150_000,
      );
      const counts = countBy(fake, 'twin');
      expect(counts.size).toBe(N);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      const attempts = await database.db
        .selectFrom('ums_attempts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(attempts.n)).toBe(N);
    } finally {
      a.proc.kill('SIGTERM');
      b.proc.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
      await fake.stop();
      await database.close();
    }
  }, 240_000);
});
