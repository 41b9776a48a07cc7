/**
 * The outbox under real processes: SIGKILL with 500 messages queued loses nothing — to DingTalk, and
 * to a channel of every kind (DingTalk, WeCom, Feishu, a generic webhook, e-mail over real SMTP) — and
 * two instances on one PostgreSQL deliver 1,000 messages exactly once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeDingTalk } from '../../fixtures/fake-dingtalk';
import { FakeFeishu } from '../../fixtures/fake-feishu';
import { FakeSmtp } from '../../fixtures/fake-smtp';
import { FakeWebhook } from '../../fixtures/fake-webhook';
import { FakeWeCom } from '../../fixtures/fake-wecom';
import { call, confirmByMail, enqueue, pushedTo, umsUser, waitFor } from '../../fixtures/ums-client';
import { openTestDatabase, pgliteOnly, postgresOnly } from '../helpers';
import { spawnServer } from '../process';
import { TEST_SERVER_ENV } from '../test-database';

const env = (fake: FakeDingTalk) => ({
  ...TEST_SERVER_ENV,
  UMS_WEBHOOK_ALLOWLIST: `${fake.url}/robot/send`,
  UMS_ROBOT_PER_MINUTE: '0',
  UMS_TOKEN_PER_MINUTE: '100000',
  UMS_TOKEN_BURST: '0',
  UMS_USER_PER_MINUTE: '0',
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

pgliteOnly('SIGKILL with 500 messages queued', () => {
  test('after a restart every message ends delivered, duplicates only for the in-flight few', async () => {
    const fake = await new FakeDingTalk().start();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ums-'));
    try {
      const first = await spawnServer({ ...env(fake), DATA_DIR: dataDir, DATABASE_URL: '' }).ready;
      const { session, token } = await umsUser(first.url, fake, 'durable', { delayMs: 30, perMinute: 0 });
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

pgliteOnly('SIGKILL with messages queued on every channel kind', () => {
  test('after a restart every message of every kind ends delivered, duplicates only for the in-flight few', async () => {
    const [dingtalk, wecom, feishu, hook, smtp] = await Promise.all([
      new FakeDingTalk().start(),
      new FakeWeCom().start(),
      new FakeFeishu().start(),
      new FakeWebhook().start(),
      new FakeSmtp().start(),
    ]);
    // Every service answers slowly, so most messages are still queued when the server dies.
    for (const f of [wecom, feishu, hook, smtp]) f.delayMs = 30;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-ums-kinds-'));
    const kindsEnv = {
      ...env(dingtalk),
      UMS_WEBHOOK_ALLOWLIST: [
        `${dingtalk.url}/robot/send`,
        `${wecom.url}/cgi-bin/webhook/send`,
        `${feishu.url}/open-apis/bot/v2/hook/`,
        `${hook.url}/hook/`,
      ].join(','),
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://portal.example.edu',
      UMS_FEISHU_PER_MINUTE: '0',
      UMS_EMAIL_PER_MINUTE: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    };
    try {
      const first = await spawnServer(kindsEnv).ready;
      const { session, token } = await umsUser(first.url, dingtalk, 'durable-kinds', { delayMs: 30, perMinute: 0 });
      const created = await Promise.all([
        call(session, 'POST', '/api/ums/channels', {
          kind: 'wecom',
          name: 'w',
          webhook: wecom.robot('durable-key', { perMinute: 0 }),
        }),
        call(session, 'POST', '/api/ums/channels', {
          kind: 'feishu',
          name: 'f',
          webhook: feishu.bot('durable-tok', { perMinute: 0 }),
        }),
        call(session, 'POST', '/api/ums/channels', {
          kind: 'webhook',
          name: 'h',
          webhook: hook.endpoint('durable'),
          perMinute: 0,
        }),
        call(session, 'POST', '/api/ums/channels', { kind: 'email', name: 'e', email: 'durable@example.edu' }),
      ]);
      const channels = (await call(session, 'GET', '/api/ums/channels')).data as { id: number; kind: string }[];
      expect(created.every((c) => c.success)).toBe(true);
      await confirmByMail(first.url, smtp, 'durable@example.edu');
      const texts: Record<string, () => string[]> = {
        dingtalk: () => dingtalk.deliveredTo('durable-kinds').map((r) => r.text),
        wecom: () => wecom.deliveredTo('durable-key').map((r) => r.text),
        feishu: () => feishu.deliveredTo('durable-tok').map((r) => r.text),
        webhook: () => hook.deliveredTo('durable').map((r) => (r.json as { content: string }).content),
        email: () => pushedTo(smtp, 'durable@example.edu').map((m) => m.text),
      };
      const delivered = () => Object.values(texts).reduce((n, t) => n + t().length, 0);
      const N = 100;
      for (let i = 0; i < N; i += 5) {
        await Promise.all(
          channels.flatMap((c) =>
            Array.from({ length: 5 }, (_, j) => enqueue(first.url, token, `${c.kind}-${i + j}`, c.id)),
          ),
        );
      }
      await waitFor(async () => delivered() >= 60, 'the first deliveries');
      first.proc.kill('SIGKILL');
      await first.exited;
      const beforeRestart = Object.fromEntries(Object.entries(texts).map(([k, t]) => [k, t().length]));

      const second = await spawnServer(kindsEnv).ready;
      const s2 = { ...session, url: second.url };
      const total = N * channels.length;
      await waitFor(
        async () => (await call(s2, 'GET', '/api/ums/stats')).data.byStatus.delivered === total,
        'all delivered',
        150_000,
      );
      let duplicated = 0;
      const report: string[] = [];
      for (const [kind, t] of Object.entries(texts)) {
        const counts = new Map<string, number>();
        for (const text of t()) {
          const id = new RegExp(`${kind}-\\d+`).exec(text)?.[0] ?? text;
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        const dupes = [...counts.values()].filter((c) => c > 1).length;
        duplicated += dupes;
        expect({ kind, distinct: counts.size }).toEqual({ kind, distinct: N });
        expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
        report.push(`${kind}: ${counts.size}/${N} delivered (${beforeRestart[kind]} before the kill), ${dupes} twice`);
      }
      // Only messages in flight at the kill (at most the worker's concurrency, 8) may arrive twice.
      expect(duplicated).toBeLessThanOrEqual(8);
      process.stdout.write(`\n[durability per kind] ${report.join('; ')}\n`);
      second.proc.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);
    } finally {
      await Promise.all([dingtalk.stop(), wecom.stop(), feishu.stop(), hook.stop(), smtp.stop()]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

postgresOnly('two instances on one PostgreSQL', () => {
  test('1,000 messages, each delivered exactly once', async () => {
    const fake = await new FakeDingTalk().start();
    const database = await openTestDatabase();
    const shared = { ...env(fake), DATABASE_URL: database.url!, PORTAL_SECRET: 'shared-secret-for-both-instances' };
    const a = await spawnServer({ ...shared, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-a-')) }).ready;
    const b = await spawnServer({ ...shared, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'portal-b-')) }).ready;
    try {
      const { session, token } = await umsUser(a.url, fake, 'twin', { delayMs: 30, perMinute: 0 });
      const N = 1000;
      try {
        for (let i = 0; i < N; i += 50) {
          await Promise.all(
            Array.from({ length: 50 }, (_, j) => enqueue((i + j) % 2 ? a.url : b.url, token, `twin-${i + j}`)),
          );
        }
      } catch (err) {
        // A refused send fails the test with what the servers logged about it.
        const logged = [...a.stdout, ...b.stdout].join('').split('\n');
        throw new Error(`${(err as Error).message}\n${logged.filter((l) => l.includes('"level":50')).join('\n')}`);
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
