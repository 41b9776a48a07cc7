/**
 * Entry point: config, DATA_DIR lock, database, migrations, first admin, listen, graceful shutdown.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { startBackupSocket } from './db/backup-socket';
import { DataDirLockedError, lockDataDir, type DataDirLock } from './db/datadir-lock';
import { migrateToLatest, openDatabase, type Database } from './db/database';
import { ensureFirstAdmin } from './modules/user';
import { SecretBox } from './lib/secretbox';
import type { Config } from './config';

/**
 * The key for stored secrets: PORTAL_SECRET, or on the embedded database a random key kept in
 * DATA_DIR/secret.key (0600). Instances sharing a PostgreSQL must share PORTAL_SECRET.
 */
function loadSecretBox(config: Config): SecretBox {
  if (config.PORTAL_SECRET) return SecretBox.fromSecret(config.PORTAL_SECRET);
  if (config.DATABASE_URL) {
    throw new Error('PORTAL_SECRET is required with DATABASE_URL (every instance must use the same one).');
  }
  const file = path.join(config.dataDir, 'secret.key');
  if (!fs.existsSync(file))
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return SecretBox.fromSecret(fs.readFileSync(file, 'utf8').trim());
}

export interface StartHooks {
  /** Runs after the app is built and before it listens; the benchmark harness adds its probe routes here. */
  beforeListen?: (app: Awaited<ReturnType<typeof buildApp>>, database: Database) => Promise<void>;
}

export async function main(hooks: StartHooks = {}): Promise<void> {
  const config = loadConfig();
  let lock: DataDirLock | undefined;
  let database: Database | undefined;
  if (!config.DATABASE_URL) {
    try {
      lock = lockDataDir(config.dataDir);
    } catch (err) {
      if (err instanceof DataDirLockedError) {
        process.stderr.write(`${err.message}\n`);
        process.exit(2);
      }
      throw err;
    }
  }
  const releaseLock = () => lock?.release();
  process.on('exit', releaseLock);

  try {
    database = await openDatabase(
      config.DATABASE_URL
        ? { url: config.DATABASE_URL }
        : { pgDataDir: path.join(config.dataDir, 'pgdata'), sharedBuffers: config.PGLITE_SHARED_BUFFERS },
    );
    await migrateToLatest(database.db);
    const admin = await ensureFirstAdmin(database.db, config.ADMIN_PASSWORD);
    if (admin.generatedPassword) {
      // Printed once on purpose (stdout, not the log stream): it is never stored in clear anywhere.
      process.stdout.write(
        `\n============================================================\n` +
          ` 已创建初始管理员 / first administrator created\n` +
          `   username: admin\n   password: ${admin.generatedPassword}\n` +
          ` 请登录后立即修改密码。This is shown only once.\n` +
          `============================================================\n\n`,
      );
    }
  } catch (err) {
    await database?.close().catch(() => undefined);
    releaseLock();
    throw err;
  }

  const secrets = loadSecretBox(config);
  const app = await buildApp({ db: database.db, config, secrets, soleInstance: !config.DATABASE_URL });
  // Embedded database: `npm run backup` asks this process for a consistent copy over DATA_DIR/backup.sock
  // (owner-only) instead of opening the directory a second time (server/db/backup-socket.ts).
  const backupSocket = config.DATABASE_URL
    ? undefined
    : await startBackupSocket({ database, dataDir: config.dataDir, log: app.log });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await app.close(); // stops accepting, waits for in-flight requests
      await backupSocket?.close();
      await database!.close();
    } finally {
      releaseLock();
      clearTimeout(force);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  if (hooks.beforeListen) await hooks.beforeListen(app, database);
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  app.log.info({ port, database: database.kind }, `portal listening on http://localhost:${port}`);
}

export function run(hooks: StartHooks = {}): void {
  main(hooks).catch((err) => {
    process.stderr.write(`portal failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}

if (require.main === module) run();
