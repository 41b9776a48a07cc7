/**
 * Test harness: a real database (PGlite from the migrated template, or a fresh database on the
 * PostgreSQL named by TEST_DATABASE_URL), the real app, and a cookie-keeping client over inject().
 */
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import { buildApp, type App } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { migrateToLatest, openDatabase, type Database } from '../../server/db/database';
import type { DB } from '../../server/db/schema';
import { SecretBox } from '../../server/lib/secretbox';
import { loggerOptions } from '../../server/logger';
import { createUser } from '../../server/modules/user/service';
import type { Role } from '../../src/contract';
import { track } from '../fixtures/tracked';
import { TEST_SHARED_BUFFERS } from './test-database';

/**
 * Suites about one kind of database only: the PostgreSQL leg (TEST_DATABASE_URL) skips the embedded
 * database's and runs PostgreSQL's; `npm test` does the opposite.
 */
export const pgliteOnly = process.env.TEST_DATABASE_URL ? describe.skip : describe;
export const postgresOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

export interface TestDatabase {
  db: Kysely<DB>;
  /** The PostgreSQL URL of this database (TEST_DATABASE_URL runs only). */
  url?: string;
  close(): Promise<void>;
}

/** PostgreSQL: until at least `n` sessions of this database wait for a lock (polled, no fixed sleep). */
export async function untilLockWaiters(db: Kysely<DB>, n: number): Promise<void> {
  for (;;) {
    const r = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (r.rows[0]!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What `fn` returned, in a transaction that is then rolled back: nothing it wrote stays. */
export async function rolledBack<T>(db: Kysely<DB>, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const rollback = Symbol('rollback');
  let value!: T;
  try {
    await db.transaction().execute(async (trx) => {
      value = await fn(trx);
      throw rollback;
    });
  } catch (err) {
    if (err !== rollback) throw err;
  }
  return value;
}

export async function openTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ url: target.toString(), poolMax: 5 });
    await migrateToLatest(database.db);
    return {
      db: database.db,
      url: target.toString(),
      async close() {
        await database.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        // No FORCE: terminating a connection that is still closing crashed a run. The pool is closed,
        // so the drop succeeds once the server has noticed the last disconnect.
        for (let attempt = 0; ; attempt++) {
          try {
            await c.query(`drop database if exists ${name}`);
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        await c.end();
      },
    };
  }
  const template = process.env.PORTAL_TEST_TEMPLATE;
  let database: Database;
  if (template) {
    database = await openDatabase({ loadFrom: template, sharedBuffers: TEST_SHARED_BUFFERS });
  } else {
    database = await openDatabase({ sharedBuffers: TEST_SHARED_BUFFERS });
    await migrateToLatest(database.db);
  }
  return { db: database.db, close: () => database.close() };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    UI_DIR: '/nonexistent-ui',
    DATA_DIR: '/nonexistent-data',
    REGISTER_RATE_LIMIT: '0',
    UMS_WORKER: 'false', // tests drive app.umsWorker.runOnce() with their own clock
    ...overrides,
  });
}

/**
 * The environment of an app whose administrators point OCS upstreams and AI providers at the fake
 * servers on loopback (tests/fixtures): allow-listed, as an operator would a model server on the LAN.
 */
export const FAKES_ON_LOOPBACK = { ADMIN_URL_ALLOWLIST: 'http://127.0.0.1:' };

export interface TestContext {
  app: App;
  db: Kysely<DB>;
  config: Config;
  /** Every log line the app wrote, for redaction checks. */
  logs: string[];
  /** What its stored secrets are sealed with. */
  secrets: SecretBox;
  close(): Promise<void>;
}

export async function startTestApp(
  env: Record<string, string> = {},
  database?: TestDatabase,
  /** `secrets`: another app's, for a second instance on the same database. */
  extra: { clock?: () => Date; secrets?: SecretBox } = {},
): Promise<TestContext> {
  const owned = !database;
  const tdb = database ?? (await openTestDatabase());
  const config = testConfig(env);
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = { ...(loggerOptions('info') as object), stream };
  const secrets = extra.secrets ?? SecretBox.fromSecret(crypto.randomBytes(16).toString('hex'));
  const app = await buildApp({ db: tdb.db, config, secrets, clock: extra.clock }, { logger });
  await app.ready();
  await app.ocs.bank.loaded;
  const tracked = track('test app', async () => {
    await app.close();
    if (owned) await tdb.close();
  });
  return { app, db: tdb.db, config, secrets, logs, close: tracked.stop };
}

/** A browser-like client: keeps cookies, sends JSON, remembers nothing else. */
export class Client {
  cookies = new Map<string, string>();
  constructor(
    private app: App,
    private headers: Record<string, string> = {},
  ) {}

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      ...opts,
      headers: { ...this.headers, ...(cookie ? { cookie } : {}), ...(opts.headers as Record<string, string>) },
    });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, payload?: unknown) {
    return this.request({ method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
  }
}

let counter = 0;
export function uniqueName(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${process.pid}_${counter}`.slice(0, 32);
}

/** Creates a user directly (no HTTP) and returns a logged-in client for it. */
export async function loggedInClient(
  ctx: TestContext,
  roles: Role[] = [],
  password = 'correct-horse-battery',
): Promise<{ client: Client; username: string; uid: number }> {
  const username = uniqueName(roles.join('') || 'user');
  const user = await createUser(ctx.db, { username, password, roles });
  const client = new Client(ctx.app);
  const res = await client.post('/api/user/login', { username, password });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
  return { client, username, uid: user.id };
}

/** A multipart/form-data body with one file field, for inject(). */
export function multipart(
  field: string,
  filename: string,
  content: Buffer,
  contentType = 'application/octet-stream',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----portal${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
