/**
 * The real server process on a real data directory: the DATA_DIR lock, kill -9 durability and
 * graceful shutdown. PGlite only (with DATABASE_URL there is no data directory to protect).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/database';
import { pgliteOnly } from './helpers';
import { spawnServer } from './process';
import { TEST_SERVER_ENV } from './test-database';

pgliteOnly('server process on a data directory', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-data-'));
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('a second server on the same DATA_DIR is refused; kill -9 loses no answered registration; SIGTERM releases the lock', async () => {
    const env = {
      ...TEST_SERVER_ENV,
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'admin-password-1',
      REGISTER_RATE_LIMIT: '0',
      DATABASE_URL: '',
    };
    const first = await spawnServer(env).ready;

    // 1. A second server is refused, naming the directory and the owner.
    const second = spawnServer(env);
    const secondExit = await second.exited;
    expect(secondExit.code).not.toBe(0);
    const message = second.stderr.join('');
    expect(message).toContain(dataDir);
    expect(message).toContain(`pid ${first.proc.pid}`);

    // 2. A burst of registrations, killed with SIGKILL in the middle.
    const answered: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const username = `burst_${w}_${i}`;
        try {
          const res = await fetch(`${first.url}/api/user/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password: 'pa55word!' }),
          });
          if (res.status === 200 && ((await res.json()) as { success?: boolean }).success === true)
            answered.push(username);
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    while (answered.length < 120) await new Promise((r) => setImmediate(r));
    first.proc.kill('SIGKILL');
    await first.exited;
    stop = true;
    await Promise.all(workers);
    expect(answered.length).toBeGreaterThanOrEqual(120);

    // 3. Restart on the same directory: the stale lock is taken over and every answered user is there.
    const again = await spawnServer(env).ready;
    for (const username of answered.slice(-5)) {
      const res = await fetch(`${again.url}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: 'pa55word!' }),
      });
      expect(res.status).toBe(200);
    }

    // 4. SIGTERM: clean exit, lock released.
    again.proc.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'portal.lock'))).toBe(false);

    const database = await openDatabase({ pgDataDir: path.join(dataDir, 'pgdata') });
    try {
      const rows = await database.db
        .selectFrom('users')
        .select('username')
        .where('username', 'like', 'burst_%')
        .execute();
      const stored = new Set(rows.map((r) => r.username));
      const missing = answered.filter((u) => !stored.has(u));
      expect(missing).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
