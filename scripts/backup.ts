/**
 * `npm run backup [-- --out DIR|FILE] [--keep-days N] [--no-secret-key]`: a consistent backup of the
 * configured database (docs/operations.md, "Backups").
 *
 * - DATABASE_URL set: pg_dump in its custom format (`….pgdump`).
 * - Embedded database, server stopped: takes the DATA_DIR lock, opens PGlite, dumps, releases.
 * - Embedded database, server running (the lock is held): never opens the directory (two processes on
 *   one PGlite directory lose data); asks the server over DATA_DIR/backup.sock, which only the
 *   server's OS user can reach, to make the backup through its own database worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import {
  BackupError,
  backupPath,
  backupPostgres,
  describeCounts,
  formatBytes,
  pruneBackups,
  readPgliteBackup,
  writePgliteBackup,
  type BackupManifest,
} from '../server/db/backup';
import { backupSocketPath, requestServerBackup } from '../server/db/backup-socket';
import { DataDirLockedError, lockDataDir } from '../server/db/datadir-lock';
import { openDatabase } from '../server/db/database';

const USAGE = `usage: npm run backup [-- --out DIR|FILE] [--keep-days N] [--no-secret-key]
  --out DIR|FILE    where to write (default: $BACKUP_DIR or ./backups); a name ending in .tar.gz or
                    .pgdump is a file, anything else a directory that gets portal-<UTC time>.<kind>
  --keep-days N     afterwards, delete this script's backups in that directory older than N days
  --no-secret-key   leave DATA_DIR/secret.key out of an embedded-database backup (keep it elsewhere:
                    without it the stored webhooks and AI keys cannot be decrypted)`;

async function backupEmbedded(
  dataDir: string,
  file: string,
  secretKey: boolean,
  sharedBuffers: string | undefined,
): Promise<{ manifest: BackupManifest; how: string }> {
  const pgdata = path.join(dataDir, 'pgdata');
  if (!fs.existsSync(path.join(pgdata, 'PG_VERSION')))
    throw new BackupError(`there is no database in ${pgdata} (DATA_DIR=${dataDir}): nothing to back up`);
  let lock;
  try {
    lock = lockDataDir(dataDir);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    const socket = backupSocketPath(dataDir);
    const manifest = await requestServerBackup(socket, file, { secretKey });
    return { manifest, how: `made by the running server (pid ${err.ownerPid}) through ${socket}` };
  }
  process.on('exit', () => lock.release());
  const partial = `${file}.partial`;
  try {
    const database = await openDatabase({ pgDataDir: pgdata, sharedBuffers });
    try {
      const manifest = await writePgliteBackup({ database, dataDir, outFile: partial, via: 'offline', secretKey });
      fs.renameSync(partial, file);
      return { manifest, how: 'offline (no server was running; the DATA_DIR lock was held meanwhile)' };
    } finally {
      await database.close();
    }
  } finally {
    fs.rmSync(partial, { force: true });
    lock.release();
  }
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        out: { type: 'string' },
        'keep-days': { type: 'string' },
        'no-secret-key': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    throw new BackupError(`${(err as Error).message}\n${USAGE}`, 2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const keepDays = args['keep-days'] === undefined ? undefined : Number(args['keep-days']);
  if (keepDays !== undefined && !(Number.isInteger(keepDays) && keepDays >= 1))
    throw new BackupError(`--keep-days must be a whole number of days, at least 1\n${USAGE}`, 2);

  const config = loadConfig();
  const kind = config.DATABASE_URL ? 'postgres' : 'pglite';
  const out = path.resolve(args.out ?? (process.env.BACKUP_DIR || 'backups'));
  const isFile = /\.(tar\.gz|pgdump)$/.test(out);
  const dir = isFile ? path.dirname(out) : out;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = isFile ? out : backupPath(dir, kind);
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists`);

  const t0 = Date.now();
  let summary: string;
  if (config.DATABASE_URL) {
    const partial = `${file}.partial`;
    try {
      const { tables } = await backupPostgres(config.DATABASE_URL, partial);
      fs.renameSync(partial, file);
      summary = `PostgreSQL (pg_dump, custom format): ${tables} tables`;
    } finally {
      fs.rmSync(partial, { force: true });
    }
  } else {
    const { manifest, how } = await backupEmbedded(
      config.dataDir,
      file,
      !args['no-secret-key'],
      config.PGLITE_SHARED_BUFFERS,
    );
    // Read it all back (gzip checksum, tar headers, every entry) before calling it a backup.
    await readPgliteBackup(file);
    const last = manifest.migrations.at(-1) ?? 'none';
    summary =
      `embedded database ${config.dataDir}, ${how}\n` +
      `  ${describeCounts(manifest.tables)}; migrations up to ${last}; ` +
      (manifest.secretKey
        ? 'secret.key included (this file decrypts the stored secrets: keep it private)'
        : 'secret.key NOT included (keep it, or PORTAL_SECRET, elsewhere)');
  }
  const size = fs.statSync(file).size;
  console.log(`backup written: ${file} (${formatBytes(size)}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`  ${summary}`);
  if (keepDays !== undefined) {
    const removed = pruneBackups(dir, keepDays, file);
    console.log(`  removed ${removed.length} backup(s) older than ${keepDays} days from ${dir}`);
    for (const r of removed) console.log(`    ${path.basename(r)}`);
  }
}

main().catch((err) => {
  console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(err instanceof BackupError ? err.exitCode : 1);
});
