/**
 * `npm run backup` and `npm run restore`, end to end through the scripts themselves: a database filled
 * through the app's API and services (users, sessions, tokens, an OCS bank with a charged query, a UMS
 * channel with encrypted secrets and a queued message, an NJIT roster import), backed up, restored into
 * an empty target, and compared with the original table by table, row by row (every table listed from
 * information_schema, plus every sequence's position).
 *
 * Embedded database: the online path (the lock is held, the script asks the server over
 * DATA_DIR/backup.sock), the offline path (the script takes the lock itself), the refusals, and the
 * real server process creating and removing its socket. PostgreSQL (pg_dump / pg_restore into a second
 * database) runs, instead of the embedded part, when TEST_DATABASE_URL is set:
 * `bash .ci/postgres.sh npx jest tests/server/backup.test.ts`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { listTables, readPgliteBackup, tableRef } from '../../server/db/backup';
import { backupSocketPath, startBackupSocket } from '../../server/db/backup-socket';
import { lockDataDir } from '../../server/db/datadir-lock';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { prepareQuestion } from '../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../server/modules/ocs/bank/store';
import { credit } from '../../server/modules/ocs/wallet/balance';
import { createUser } from '../../server/modules/user/service';
import {
  Client,
  loggedInClient,
  openTestDatabase,
  pgliteOnly,
  postgresOnly,
  startTestApp,
  type TestContext,
  type TestDatabase,
} from './helpers';
import { csv, importFile, PEOPLE } from './njit/fixtures';
import { spawnServer, spawnTracked } from './process';
import { TEST_SERVER_ENV, TEST_SHARED_BUFFERS } from './test-database';

const ROOT = path.resolve(__dirname, '../..');
let tmp: string;
/** The embedded database's backup made through the running server (first test). */
let online: string | undefined;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bk-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs scripts/<name>.ts as `npm run <name>` does (tsx), with only the given database settings. */
function script(name: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Run> {
  const { proc } = spawnTracked(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'scripts', `${name}.ts`), ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        PORTAL_SECRET: '',
        BACKUP_DIR: '',
        PGLITE_SHARED_BUFFERS: TEST_SHARED_BUFFERS,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (d) => (stdout += String(d)));
  proc.stderr!.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, stdout, stderr })));
}

function writtenFile(run: Run): string {
  const m = /^backup written: (.+) \(/m.exec(run.stdout);
  if (run.code !== 0 || !m) throw new Error(`backup failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  return m[1]!;
}

function expectOk(run: Run): void {
  if (run.code !== 0) throw new Error(`exit ${run.code}:\n${run.stdout}\n${run.stderr}`);
}

/** Every row of every table (as JSON text, sorted) and every sequence's last value. */
async function snapshot(db: Kysely<any>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of await listTables(db)) {
    const r = await sql<{ r: string }>`select row_to_json(x)::text as r from ${tableRef(t)} x`.execute(db);
    out[t] = r.rows.map((row) => row.r).sort();
  }
  const seqs = await sql<{ s: string }>`
    select schemaname || '.' || sequencename || '=' || coalesce(last_value::text, 'null') as s from pg_sequences`.execute(
    db,
  );
  out['~sequences'] = seqs.rows.map((r) => r.s).sort();
  return out;
}

const totalRows = (snap: Record<string, string[]>) =>
  Object.entries(snap)
    .filter(([t]) => t !== '~sequences')
    .reduce((a, [, rows]) => a + rows.length, 0);

/** Fills the database through the API (and the services the API would use for bulk loads). */
async function fill(ctx: TestContext): Promise<{ umsClient: Client }> {
  const admin = await loggedInClient(ctx, ['admin', 'njit']);
  // Self-registration through the API, then a login (a session and a device row).
  const anon = new Client(ctx.app);
  const reg = await anon.post('/api/user/register', {
    username: 'reader_01',
    password: 'a-long-password-1',
    nickname: '读者',
  });
  expect(reg.statusCode).toBe(200);
  expect(
    (await anon.post('/api/user/login', { username: 'reader_01', password: 'a-long-password-1' })).statusCode,
  ).toBe(200);
  const { client, uid } = await loggedInClient(ctx);
  await createUser(ctx.db, { username: 'byservice', password: 'another-password', roles: [] });

  // OCS: a bank, a token, points, and a charged query (ledger, query log, hit counts).
  const prepared = [
    { title: '中华人民共和国的首都是哪座城市？', type: 'single' as const, options: ['上海', '北京'], answer: ['B'] },
    { title: '水的化学式是____。', type: 'completion' as const, options: [], answer: ['H2O'] },
  ].map((q) => {
    const p = prepareQuestion(q);
    if ('error' in p) throw new Error(p.error);
    return p;
  });
  const stored = await upsertQuestions(ctx.db, prepared, 'import');
  for (const row of stored.rows) ctx.app.ocs.bank.index.add(row.id, row.norm_title);
  const token = (
    await client.post('/api/user/tokens', { name: 'ocs', scopes: ['ocs:query', 'ums:send'], expiresInDays: null })
  ).json().data.token as string;
  await credit(ctx.db, uid, 'topup', 10, '测试充值');
  const q = await ctx.app.inject({
    method: 'GET',
    url: `/api/ocs/query?token=${token}&title=${encodeURIComponent('中华人民共和国的首都是哪座城市？')}&type=single&options=${encodeURIComponent('A. 上海\nB. 北京')}`,
  });
  expect(q.json()).toMatchObject({ code: 1, answer: JSON.stringify(['B. 北京']) });

  // UMS: a channel (webhook and signing secret stored encrypted) and messages in the outbox.
  const ch = await client.post('/api/ums/channels', {
    name: '我的机器人',
    webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789abcdef',
    secret: `SEC${'a1'.repeat(32)}`,
  });
  expect(ch.statusCode).toBe(200);
  expect((await client.post('/api/ums/messages', { title: '备份', content: '**测试**消息' })).statusCode).toBe(200);
  const api = await ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${token}&title=t&content=from%20curl` });
  expect(api.statusCode).toBe(200);

  // NJIT: a roster import (students, the import record, the audit trail).
  await importFile(admin.client, csv(PEOPLE));
  expect((await admin.client.get(`/api/njit/students?name=${encodeURIComponent('张三')}`)).statusCode).toBe(200);

  await ctx.app.ocs.hits.flush(); // nothing left for a background job to write after this
  return { umsClient: client };
}

pgliteOnly('embedded database (PGlite)', () => {
  let dataA: string;
  let source: Record<string, string[]>;
  let underLoad: string;
  let key: Buffer;

  async function openDir(dataDir: string) {
    return openDatabase({ pgDataDir: path.join(dataDir, 'pgdata'), sharedBuffers: TEST_SHARED_BUFFERS });
  }

  async function expectSameAs(expected: Record<string, string[]>, dataDir: string) {
    const database = await openDir(dataDir);
    try {
      expect(await snapshot(database.db)).toEqual(expected);
    } finally {
      await database.close();
    }
  }

  test('while the server runs, the script gets a consistent copy through the server, never opening DATA_DIR', async () => {
    dataA = path.join(tmp, 'A');
    const lock = lockDataDir(dataA); // as the running server holds it
    key = crypto.randomBytes(32);
    fs.writeFileSync(path.join(dataA, 'secret.key'), key.toString('base64'), { mode: 0o600 });
    const database = await openDir(dataA);
    await migrateToLatest(database.db);
    const tdb: TestDatabase = { db: database.db, close: () => database.close() };
    // The load below sends as fast as it can: no per-user limit on queueing messages for it.
    const ctx = await startTestApp({ DATA_DIR: dataA, UMS_USER_PER_MINUTE: '0' }, tdb);
    const logs: string[] = [];
    const log = {
      info: () => undefined,
      warn: () => undefined,
      error: (o: object) => void logs.push(JSON.stringify(o)),
    };
    const socket = await startBackupSocket({ database, dataDir: dataA, log });
    try {
      expect(socket.path).toBe(backupSocketPath(dataA));
      expect(fs.statSync(socket.path!).mode & 0o777).toBe(0o600);
      const { umsClient } = await fill(ctx);
      source = await snapshot(ctx.db);
      expect(Object.keys(source).length).toBeGreaterThan(25);
      expect(totalRows(source)).toBeGreaterThan(40);
      for (const t of ['public.users', 'public.ocs_questions', 'public.ums_messages', 'public.njit_students'])
        expect(source[t]!.length).toBeGreaterThan(0);

      const run = await script('backup', ['--out', path.join(tmp, 'out')], { DATA_DIR: dataA });
      online = writtenFile(run);
      expect(run.stdout).toMatch(/made by the running server/);
      expect(online).toMatch(/\/portal-\d{8}-\d{6}Z\.pglite\.tar\.gz$/);
      expect(fs.statSync(online).mode & 0o777).toBe(0o600);
      expect(run.stdout).toMatch(/\d+(\.\d+)? (B|KiB|MiB)/);

      // A second backup while requests keep writing: the copy is one consistent state (the restore checks
      // every table's count against the manifest, taken in the same exclusive section as the dump).
      let writing = true;
      const statuses: number[] = [];
      const load = (async () => {
        while (writing) {
          statuses.push((await umsClient.post('/api/ums/messages', { content: `load ${statuses.length}` })).statusCode);
        }
      })();
      const loaded = await script('backup', ['--out', path.join(tmp, 'out', 'under-load.pglite.tar.gz')], {
        DATA_DIR: dataA,
      });
      writing = false;
      await load;
      underLoad = writtenFile(loaded);
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set([200]));
      expect(logs).toEqual([]);
    } finally {
      try {
        await socket.close();
        await ctx.close();
        await database.close();
      } finally {
        lock.release();
      }
    }
    expect(fs.existsSync(backupSocketPath(dataA))).toBe(false);
    expect(fs.readdirSync(dataA).filter((f) => f.startsWith('.backup-'))).toEqual([]);
  }, 240_000);

  test('the restore into an empty DATA_DIR gives back every row of every table, and the secret key', async () => {
    const dataB = path.join(tmp, 'B');
    const run = await script('restore', [online!], { DATA_DIR: dataB });
    expectOk(run);
    expect(run.stdout).toMatch(/restored .* into .*B\/pgdata/);
    expect(fs.readFileSync(path.join(dataB, 'secret.key'))).toEqual(fs.readFileSync(path.join(dataA, 'secret.key')));
    expect(fs.statSync(path.join(dataB, 'secret.key')).mode & 0o777).toBe(0o600);
    await expectSameAs(source, dataB);
  }, 120_000);

  test('a non-empty target is refused unless --force, which moves the old database aside', async () => {
    const dataB = path.join(tmp, 'B');
    const db = await openDir(dataB);
    await createUser(db.db, { username: 'after_restore', password: 'whatever-password', roles: [] });
    await db.close();

    const refused = await script('restore', [online!], { DATA_DIR: dataB });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/not empty.*--force/s);

    const forced = await script('restore', [online!, '--force'], { DATA_DIR: dataB });
    expectOk(forced);
    expect(forced.stdout).toMatch(/moved aside: .*pgdata\.before-restore-/);
    await expectSameAs(source, dataB);
    const aside = fs.readdirSync(dataB).find((f) => f.startsWith('pgdata.before-restore-'))!;
    const old = await openDatabase({ pgDataDir: path.join(dataB, aside), sharedBuffers: TEST_SHARED_BUFFERS });
    const kept = await sql`select 1 from users where username = 'after_restore'`.execute(old.db);
    await old.close();
    expect(kept.rows).toHaveLength(1);
  }, 120_000);

  test('the backup taken under load restores to exactly the state its manifest describes', async () => {
    const dataC = path.join(tmp, 'C');
    const run = await script('restore', ['--data-dir', dataC, underLoad], {});
    expectOk(run);
    const { manifest } = await readPgliteBackup(underLoad);
    expect(manifest.via).toBe('server');
    expect(manifest.tables['public.ums_messages']).toBeGreaterThan(source['public.ums_messages']!.length);
    const database = await openDir(dataC);
    const restored = await snapshot(database.db);
    await database.close();
    for (const [t, n] of Object.entries(manifest.tables)) expect([t, restored[t]!.length]).toEqual([t, n]);
  }, 120_000);

  test('with the server stopped, the script takes the lock and backs up itself', async () => {
    // The source after the first test's extra writes and the app's shutdown flushes.
    const current = await openDir(dataA);
    const now = await snapshot(current.db);
    await current.close();

    const run = await script('backup', ['--out', path.join(tmp, 'offline'), '--keep-days', '7'], { DATA_DIR: dataA });
    const offline = writtenFile(run);
    expect(run.stdout).toMatch(/offline/);
    expect(run.stdout).toMatch(/removed 0 backup\(s\) older than 7 days/);
    expect(fs.existsSync(path.join(dataA, 'portal.lock'))).toBe(false); // released

    const dataD = path.join(tmp, 'D');
    expectOk(await script('restore', [offline], { DATA_DIR: dataD }));
    await expectSameAs(now, dataD);
  }, 180_000);

  test('a locked DATA_DIR without a backup socket, a missing database and a damaged file are clear errors', async () => {
    const lock = lockDataDir(dataA);
    try {
      const run = await script('backup', ['--out', path.join(tmp, 'never')], { DATA_DIR: dataA });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/backup socket .* does not answer/);
      const restore = await script('restore', [online!], { DATA_DIR: dataA });
      expect(restore.code).toBe(3);
      expect(restore.stderr).toMatch(/Stop the server/);
    } finally {
      lock.release();
    }
    const empty = await script('backup', ['--out', path.join(tmp, 'none')], {
      DATA_DIR: path.join(tmp, 'nothing-here'),
    });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no database in/);

    const damaged = path.join(tmp, 'damaged.pglite.tar.gz');
    const bytes = fs.readFileSync(online!);
    fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const r = await script('restore', [damaged], { DATA_DIR: path.join(tmp, 'E') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not a readable portal backup/);
    expect(fs.existsSync(path.join(tmp, 'E', 'pgdata'))).toBe(false);
  }, 120_000);

  test('old backups are pruned by name and age only', async () => {
    const dir = path.join(tmp, 'offline');
    const old = path.join(dir, 'portal-20200101-000000Z.pglite.tar.gz');
    const foreign = path.join(dir, 'notes.txt');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(foreign, 'x');
    const past = new Date(Date.now() - 10 * 86_400_000);
    fs.utimesSync(old, past, past);
    fs.utimesSync(foreign, past, past);
    const run = await script('backup', ['--out', dir, '--keep-days', '7'], { DATA_DIR: dataA });
    writtenFile(run);
    expect(run.stdout).toMatch(/removed 1 backup\(s\)/);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(foreign)).toBe(true);
  }, 120_000);

  test('the real server opens its backup socket at start and removes it at shutdown', async () => {
    const dataF = path.join(tmp, 'F');
    const server = spawnServer({
      ...TEST_SERVER_ENV,
      DATA_DIR: dataF,
      ADMIN_PASSWORD: 'admin-password-1',
      UI_DIR: '/nonexistent-ui',
    });
    const ready = await server.ready;
    try {
      expect(fs.statSync(backupSocketPath(dataF)).isSocket()).toBe(true);
      const login = await fetch(`${ready.url}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
      });
      expect(login.status).toBe(200);
      const run = await script('backup', ['--out', path.join(tmp, 'live')], { DATA_DIR: dataF });
      const file = writtenFile(run);
      expect(run.stdout).toMatch(new RegExp(`made by the running server \\(pid ${server.proc.pid}\\)`));
      const dataG = path.join(tmp, 'G');
      expectOk(await script('restore', [file], { DATA_DIR: dataG }));
      const restored = await openDir(dataG);
      const admins = await sql<{ username: string }>`select username from users`.execute(restored.db);
      await restored.close();
      expect(admins.rows.map((r) => r.username)).toContain('admin');
      expect(fs.readFileSync(path.join(dataG, 'secret.key'))).toEqual(fs.readFileSync(path.join(dataF, 'secret.key')));
    } finally {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
    expect(fs.existsSync(backupSocketPath(dataF))).toBe(false);
  }, 180_000);
});

test('without the PostgreSQL client tools the backup says what to install', async () => {
  const run = await script('backup', ['--out', path.join(tmp, 'pg-none')], {
    DATABASE_URL: 'postgresql://nobody:secret@127.0.0.1:1/none',
    PG_BIN: '/nonexistent/bin',
  });
  expect(run.code).toBe(4);
  expect(run.stderr).toMatch(/pg_dump was not found.*postgresql-client.*PG_BIN/s);
  expect(fs.readdirSync(path.join(tmp, 'pg-none'))).toEqual([]);
}, 60_000);

const pgUrl = process.env.TEST_DATABASE_URL;
postgresOnly('PostgreSQL (pg_dump / pg_restore)', () => {
  let tdb: TestDatabase;
  let ctx: TestContext;
  let target: string;
  let targetName: string;

  beforeAll(async () => {
    tdb = await openTestDatabase();
    ctx = await startTestApp({}, tdb);
    targetName = `portal_restore_${crypto.randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create database ${targetName}`);
    await admin.end();
    const u = new URL(pgUrl!);
    u.pathname = `/${targetName}`;
    target = u.toString();
  });
  afterAll(async () => {
    await ctx?.close();
    await tdb?.close();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${targetName} with (force)`);
    await admin.end();
  });

  test('pg_dump, then pg_restore into an empty database, gives back every row of every table', async () => {
    await fill(ctx);
    const source = await snapshot(ctx.db);
    expect(totalRows(source)).toBeGreaterThan(40);

    const run = await script('backup', ['--out', path.join(tmp, 'pg')], { DATABASE_URL: tdb.url! });
    const file = writtenFile(run);
    expect(file).toMatch(/\.pgdump$/);
    expect(run.stdout).toMatch(/PostgreSQL \(pg_dump, custom format\): \d+ tables/);

    expectOk(await script('restore', [file], { DATABASE_URL: target }));
    const restored = await openDatabase({ url: target, poolMax: 2 });
    try {
      expect(await snapshot(restored.db)).toEqual(source);
    } finally {
      await restored.close();
    }

    const refused = await script('restore', [file], { DATABASE_URL: target });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/not empty/);
    expectOk(await script('restore', [file, '--force'], { DATABASE_URL: target }));
    const again = await openDatabase({ url: target, poolMax: 2 });
    try {
      expect(await snapshot(again.db)).toEqual(source);
    } finally {
      await again.close();
    }

    // An embedded-database backup (a gzip file: the kind is told by its first bytes) is not loaded into
    // PostgreSQL by mistake.
    const embedded = path.join(tmp, 'embedded.tar.gz');
    fs.writeFileSync(embedded, zlib.gzipSync('not loaded'));
    const wrong = await script('restore', [embedded], { DATABASE_URL: target });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/embedded-database backup but DATABASE_URL is set/);
  }, 240_000);
});
