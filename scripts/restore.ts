/**
 * `npm run restore -- FILE [--force] [--data-dir DIR]`: loads a backup made by `npm run backup`
 * (docs/operations.md, "Backups").
 *
 * - An embedded-database backup (`….pglite.tar.gz`) goes into DATA_DIR (or --data-dir), with the server
 *   stopped: the script takes the DATA_DIR lock. The target must not hold a database yet, unless --force
 *   (the old pgdata/ and secret.key are then moved aside, never deleted).
 * - A PostgreSQL backup (`….pgdump`) goes into the database of DATABASE_URL with pg_restore, in one
 *   transaction. The database must have no tables yet, unless --force (pg_restore --clean).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { BackupError, describeCounts, detectBackupKind, restorePglite, restorePostgres } from '../server/db/backup';
import { DataDirLockedError, lockDataDir } from '../server/db/datadir-lock';

const USAGE = `usage: npm run restore -- FILE [--force] [--data-dir DIR]
  FILE              a backup written by npm run backup (.pglite.tar.gz or .pgdump)
  --force           replace a target that is not empty (embedded: the old files are moved aside;
                    PostgreSQL: pg_restore --clean drops and recreates the backed-up objects)
  --data-dir DIR    restore an embedded-database backup into DIR instead of DATA_DIR`;

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        force: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
  } catch (err) {
    throw new BackupError(`${(err as Error).message}\n${USAGE}`, 2);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return;
  }
  if (parsed.positionals.length !== 1) throw new BackupError(USAGE, 2);
  const file = path.resolve(parsed.positionals[0]!);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new BackupError(`${file}: no such file`, 2);
  const force = Boolean(parsed.values.force);
  const config = loadConfig();
  const kind = detectBackupKind(file);
  const t0 = Date.now();
  const took = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

  if (kind === 'postgres') {
    if (!config.DATABASE_URL)
      throw new BackupError(`${file} is a PostgreSQL backup: set DATABASE_URL to the (empty) database to load it into`);
    const { tables } = await restorePostgres({ url: config.DATABASE_URL, file, force });
    console.log(`restored ${file} into the PostgreSQL database of DATABASE_URL: ${tables} tables (${took()})`);
    console.log('  start the servers; they apply any newer migrations themselves');
    return;
  }
  if (kind !== 'pglite') throw new BackupError(`${file} is not a portal backup`);

  const dataDirArg = parsed.values['data-dir'];
  if (config.DATABASE_URL && !dataDirArg)
    throw new BackupError(
      `${file} is an embedded-database backup but DATABASE_URL is set: unset it to restore into DATA_DIR,` +
        ' or pass --data-dir',
    );
  const dataDir = path.resolve(dataDirArg ?? config.dataDir);
  let lock;
  try {
    lock = lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError)
      throw new BackupError(`${err.message}\nStop the server before restoring.`, 3);
    throw err;
  }
  process.on('exit', () => lock.release());
  try {
    const r = await restorePglite({ file, dataDir, force, sharedBuffers: config.PGLITE_SHARED_BUFFERS });
    console.log(`restored ${file} into ${path.join(dataDir, 'pgdata')} (${took()})`);
    console.log(
      `  ${describeCounts(r.counts)}, as in the backup of ${r.manifest.createdAt}` +
        (r.manifest.secretKey ? '; secret.key restored' : ''),
    );
    for (const m of r.movedAside) console.log(`  moved aside: ${m} (delete it once the restored portal works)`);
    for (const n of r.notes) console.log(`  note: ${n}`);
    if (r.manifest.secretKey && config.PORTAL_SECRET)
      console.log('  note: PORTAL_SECRET is set, so the server will use it rather than the restored secret.key');
    console.log('  start the server (npm start); it applies any newer migrations itself');
  } finally {
    lock.release();
  }
}

main().catch((err) => {
  console.error(`restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(err instanceof BackupError ? err.exitCode : 1);
});
