/**
 * Backups and restores (`npm run backup`, `npm run restore`; docs/operations.md, "Backups").
 *
 * Embedded database: a gzipped tar holding `manifest.json` (tables and their row counts, applied
 * migrations, Postgres version), `pgdata.tar` (PGlite's own dump of its data directory) and, unless left
 * out, `secret.key` (without it the stored DingTalk webhooks and API keys cannot be decrypted). The dump
 * is taken while the driver's gate is held (no other statement or transaction of the server runs), after
 * a CHECKPOINT, so the copy is consistent and the row counts in the manifest are exactly those of the
 * copy; the restore checks them. Only one process may open a PGlite directory, so this file's functions
 * work on a Database the caller opened: the backup script when the server is stopped, the server itself
 * (backup-socket.ts) while it runs.
 *
 * PostgreSQL: pg_dump's custom format (a consistent snapshot by itself) and pg_restore.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { readTar, tarStream, type TarFile, type TarSink } from '../lib/tar';
import { openDatabase, type Database } from './database';

/** A refusal or failure to report to the operator as it is (the scripts print `message` and exit). */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface BackupManifest {
  format: 'portal-backup';
  version: 1;
  kind: 'pglite';
  createdAt: string;
  host: string;
  /** `offline`: the backup script opened the stopped database; `server`: the running server made it. */
  via: 'offline' | 'server';
  postgres: string;
  migrations: string[];
  /** Row count of every table (`schema.table`) in the copy. */
  tables: Record<string, number>;
  secretKey: boolean;
}

// ---------- tables ----------

/**
 * Every table of the database outside the system schemas, as `schema.table`, sorted. UNLOGGED tables
 * (rate_limits: counts worth nothing after a restart, migration 0014) are left out: PostgreSQL empties
 * them whenever it starts from a copy, so their rows are not part of what a backup promises.
 */
export async function listTables(db: Kysely<any>): Promise<string[]> {
  const r = await sql<{ table_schema: string; table_name: string }>`
    select n.nspname as table_schema, c.relname as table_name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and c.relpersistence = 'p'
      and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%'
    order by 1, 2`.execute(db);
  return r.rows.map((t) => `${t.table_schema}.${t.table_name}`);
}

export function tableRef(qualified: string) {
  const dot = qualified.indexOf('.');
  return sql.id(qualified.slice(0, dot), qualified.slice(dot + 1));
}

export async function countRows(db: Kysely<any>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of await listTables(db)) {
    const r = await sql<{ n: number }>`select count(*)::bigint as n from ${tableRef(t)}`.execute(db);
    counts[t] = Number(r.rows[0]!.n);
  }
  return counts;
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** "27 tables, 1,234 rows" */
export function describeCounts(counts: Record<string, number>): string {
  return `${Object.keys(counts).length} tables, ${sum(counts).toLocaleString('en-US')} rows`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[i]}`;
}

// ---------- file names ----------

export type BackupKind = 'pglite' | 'postgres';

const NAME = /^portal-\d{8}-\d{6}Z(-\d+)?\.(pglite\.tar\.gz|pgdump)$/;

/** `portal-20261124-153012Z.pglite.tar.gz` or `….pgdump` (UTC), with `-1`, `-2`… when taken. */
export function backupPath(dir: string, kind: BackupKind, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  const ext = kind === 'pglite' ? 'pglite.tar.gz' : 'pgdump';
  for (let i = 0; ; i++) {
    const file = path.join(dir, `portal-${stamp}${i ? `-${i}` : ''}.${ext}`);
    if (!fs.existsSync(file) && !fs.existsSync(`${file}.partial`)) return file;
  }
}

/** Deletes this script's backups (by their name pattern) in `dir` older than `days`; returns them. */
export function pruneBackups(dir: string, days: number, keep: string, now = Date.now()): string[] {
  const removed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!NAME.test(name) || path.resolve(file) === path.resolve(keep)) continue;
    const st = fs.statSync(file);
    if (st.isFile() && now - st.mtimeMs > days * 86_400_000) {
      fs.rmSync(file);
      removed.push(file);
    }
  }
  return removed;
}

/** What a backup file holds, from its first bytes. */
export function detectBackupKind(file: string): BackupKind | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(5);
    fs.readSync(fd, head, 0, 5, 0);
    if (head.toString('latin1') === 'PGDMP') return 'postgres';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

// ---------- embedded database: backup ----------

/**
 * Dumps an open PGlite database to `tarFile`. The transaction holds the driver's gate, so nothing else
 * of this process runs meanwhile (requests wait; PGlite runs one statement at a time anyway): the
 * counts and the dump describe the same state. CHECKPOINT writes every dirty page first, so the copy
 * starts without crash recovery.
 */
export async function snapshotPglite(
  database: Database,
  tarFile: string,
): Promise<Pick<BackupManifest, 'tables' | 'migrations' | 'postgres'>> {
  if (database.kind !== 'pglite') throw new Error('snapshotPglite needs the embedded database');
  return database.db.transaction().execute(async (trx) => {
    const tables = await countRows(trx);
    const migrations = tables['public.kysely_migration']
      ? (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(trx)).rows.map(
          (r) => r.name,
        )
      : [];
    const postgres = (await sql<{ v: string }>`select version() as v`.execute(trx)).rows[0]!.v;
    await sql`checkpoint`.execute(trx);
    await database.dump(tarFile);
    return { tables, migrations, postgres };
  });
}

/** Writes the tar entries gzipped into a new file (mode 0600). */
async function writeArchive(file: string, entries: TarFile[]): Promise<void> {
  await pipeline(
    Readable.from(tarStream(entries)),
    zlib.createGzip({ level: 6 }),
    fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }),
  );
}

/**
 * Writes a backup archive of an open embedded database to `outFile` (which must not exist). The
 * temporary PGlite dump goes beside it and is removed.
 */
export async function writePgliteBackup(opts: {
  database: Database;
  dataDir: string;
  outFile: string;
  via: BackupManifest['via'];
  secretKey: boolean;
}): Promise<BackupManifest> {
  const tmpTar = `${opts.outFile}.pgdata.tmp`;
  try {
    const snap = await snapshotPglite(opts.database, tmpTar);
    const keyFile = path.join(opts.dataDir, 'secret.key');
    const key = opts.secretKey && fs.existsSync(keyFile) ? fs.readFileSync(keyFile) : undefined;
    const manifest: BackupManifest = {
      format: 'portal-backup',
      version: 1,
      kind: 'pglite',
      createdAt: new Date().toISOString(),
      host: os.hostname(),
      via: opts.via,
      ...snap,
      secretKey: Boolean(key),
    };
    await writeArchive(opts.outFile, [
      { name: 'manifest.json', source: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), mode: 0o644 },
      { name: 'pgdata.tar', source: { path: tmpTar } },
      ...(key ? [{ name: 'secret.key', source: key }] : []),
    ]);
    return manifest;
  } catch (err) {
    fs.rmSync(opts.outFile, { force: true });
    throw err;
  } finally {
    fs.rmSync(tmpTar, { force: true });
  }
}

// ---------- embedded database: reading an archive ----------

function bufferSink(into: Buffer[]): TarSink {
  return { write: (c) => void into.push(Buffer.from(c)), end: () => undefined };
}

function fileSink(file: string): TarSink {
  const ws = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  return {
    async write(chunk) {
      if (!ws.write(chunk)) await once(ws, 'drain');
    },
    end: () =>
      new Promise<void>((resolve, reject) => {
        ws.once('error', reject);
        ws.end(() => resolve());
      }),
  };
}

/**
 * Reads a backup archive all the way through (gzip CRC, tar checksums, every entry present), and
 * extracts `pgdata.tar` to `pgdataOut` when given. Throws BackupError on anything unexpected.
 */
export async function readPgliteBackup(
  file: string,
  pgdataOut?: string,
): Promise<{ manifest: BackupManifest; secretKey?: Buffer; pgdataBytes: number }> {
  const manifestChunks: Buffer[] = [];
  const keyChunks: Buffer[] = [];
  let pgdataBytes = -1;
  let sawKey = false;
  try {
    await pipeline(fs.createReadStream(file), zlib.createGunzip(), async (source: AsyncIterable<Buffer>) => {
      await readTar(source, (entry) => {
        if (entry.name === 'manifest.json') return bufferSink(manifestChunks);
        if (entry.name === 'secret.key') {
          sawKey = true;
          return bufferSink(keyChunks);
        }
        if (entry.name === 'pgdata.tar') {
          pgdataBytes = entry.size;
          if (pgdataOut) return fileSink(pgdataOut);
        }
        return undefined;
      });
    });
  } catch (err) {
    if (pgdataOut) fs.rmSync(pgdataOut, { force: true });
    throw new BackupError(`${file} is not a readable portal backup: ${(err as Error).message}`);
  }
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(Buffer.concat(manifestChunks).toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${file} has no valid manifest.json: not a portal backup`);
  }
  if (manifest.format !== 'portal-backup' || manifest.kind !== 'pglite' || manifest.version !== 1)
    throw new BackupError(`${file} is not an embedded-database portal backup (format ${manifest.format})`);
  if (pgdataBytes <= 0) throw new BackupError(`${file} holds no database (pgdata.tar is missing or empty)`);
  return { manifest, secretKey: sawKey ? Buffer.concat(keyChunks) : undefined, pgdataBytes };
}

// ---------- embedded database: restore ----------

export interface RestoreResult {
  manifest: BackupManifest;
  counts: Record<string, number>;
  /** What --force moved aside (never deleted). */
  movedAside: string[];
  notes: string[];
}

/**
 * Restores an archive into `dataDir` (whose lock the caller holds). The database is loaded into a
 * staging directory, its row counts are checked against the manifest, and only then moved into place:
 * a failed restore leaves the target as it was. A target that already holds a database (or another
 * secret.key) is refused unless `force`, which moves the old one aside (`pgdata.before-restore-…`).
 */
export async function restorePglite(opts: {
  file: string;
  dataDir: string;
  force: boolean;
  /** PGLITE_SHARED_BUFFERS, for the check of the restored database. */
  sharedBuffers?: string;
}): Promise<RestoreResult> {
  const dataDir = path.resolve(opts.dataDir);
  const pgdata = path.join(dataDir, 'pgdata');
  const keyFile = path.join(dataDir, 'secret.key');
  const notes: string[] = [];
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const tmpTar = path.join(dataDir, `.restore-${process.pid}-${stamp}.tar`);
  const staging = path.join(dataDir, `pgdata.restoring-${process.pid}-${stamp}`);
  const refuse = (why: string) =>
    new BackupError(
      `${dataDir} is not empty (${why}). Restore into an empty DATA_DIR, or add --force to replace it` +
        ' (the current files are moved aside, not deleted).',
      3,
    );
  const hasDatabase = fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0;
  if (hasDatabase && !opts.force) throw refuse('it holds a database in pgdata/');
  try {
    // The whole archive is read (and checked) before anything of the target changes.
    const { manifest, secretKey } = await readPgliteBackup(opts.file, tmpTar);
    const oldKey = fs.existsSync(keyFile) ? fs.readFileSync(keyFile) : undefined;
    const keyClash = Boolean(secretKey && oldKey && !oldKey.equals(secretKey));
    if (keyClash && !opts.force) throw refuse('it holds a different secret.key');

    const database = await openDatabase({ pgDataDir: staging, loadFrom: tmpTar, sharedBuffers: opts.sharedBuffers });
    let counts: Record<string, number>;
    try {
      counts = await countRows(database.db);
    } finally {
      await database.close();
    }
    const expected = JSON.stringify(Object.entries(manifest.tables).sort());
    if (JSON.stringify(Object.entries(counts).sort()) !== expected) {
      throw new BackupError(
        `the restored database does not match the backup's manifest (${describeCounts(counts)} restored,` +
          ` ${describeCounts(manifest.tables)} expected); nothing was changed`,
      );
    }

    const movedAside: string[] = [];
    if (fs.existsSync(pgdata)) {
      if (hasDatabase) {
        const aside = `${pgdata}.before-restore-${stamp}`;
        fs.renameSync(pgdata, aside);
        movedAside.push(aside);
      } else {
        fs.rmSync(pgdata, { recursive: true, force: true });
      }
    }
    fs.renameSync(staging, pgdata);
    if (secretKey) {
      if (keyClash) {
        const aside = `${keyFile}.before-restore-${stamp}`;
        fs.renameSync(keyFile, aside);
        movedAside.push(aside);
      }
      if (!oldKey || keyClash) fs.writeFileSync(keyFile, secretKey, { mode: 0o600 });
    } else {
      notes.push(
        'The backup carries no secret.key: run the server with the PORTAL_SECRET (or the secret.key) of the' +
          ' backed-up installation, or the stored DingTalk webhooks and AI keys cannot be decrypted.',
      );
    }
    return { manifest, counts, movedAside, notes };
  } finally {
    fs.rmSync(tmpTar, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

// ---------- PostgreSQL ----------

/** The PostgreSQL client tool `name`, from PG_BIN when set (e.g. /usr/lib/postgresql/16/bin). */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  return process.env.PG_BIN ? path.join(process.env.PG_BIN, name) : name;
}

/**
 * The URL for libpq without its password, which goes to PGPASSWORD instead: command lines are
 * visible to every user of the machine (ps), the environment is not.
 */
function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  return { dbname: u.toString(), env };
}

async function runTool(
  name: 'pg_dump' | 'pg_restore',
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string }> {
  const bin = pgTool(name);
  const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c));
  }).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT')
      throw new BackupError(
        `${bin} was not found. Install the PostgreSQL client tools, of the server's major version or newer` +
          ' (Debian/Ubuntu: apt-get install postgresql-client; RHEL: dnf install postgresql), or set PG_BIN to' +
          ' the directory that holds them (e.g. PG_BIN=/usr/lib/postgresql/16/bin).',
        4,
      );
    throw e;
  });
  const stderr = Buffer.concat(err).toString('utf8').trim();
  if (code !== 0) {
    const hint = /server version mismatch/.test(stderr)
      ? `\nThe server is newer than ${bin}: install the client tools of its version and set PG_BIN.`
      : '';
    throw new BackupError(`${name} failed (exit code ${code}):\n${stderr}${hint}`);
  }
  return { stdout: Buffer.concat(out).toString('utf8'), stderr };
}

/** pg_dump in its custom format (compressed, read by pg_restore) to `outFile`, then checked. */
export async function backupPostgres(url: string, outFile: string): Promise<{ tables: number }> {
  const { dbname, env } = libpqTarget(url);
  try {
    await runTool('pg_dump', ['--format=custom', `--file=${outFile}`, `--dbname=${dbname}`], env);
    fs.chmodSync(outFile, 0o600);
    // The table of contents reads back: the file is complete.
    const { stdout } = await runTool('pg_restore', ['--list', outFile], env);
    return { tables: stdout.split('\n').filter((l) => / TABLE DATA /.test(l)).length };
  } catch (err) {
    fs.rmSync(outFile, { force: true });
    throw err;
  }
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function userTableCount(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const r = await c.query<{ n: string }>(
      `select count(*) as n from information_schema.tables
       where table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg\\_toast%'`,
    );
    return Number(r.rows[0]!.n);
  });
}

/**
 * pg_restore into the database at `url`, in one transaction (all or nothing). A database that already
 * has tables is refused unless `force`, which drops and recreates the objects the backup holds.
 */
export async function restorePostgres(opts: {
  url: string;
  file: string;
  force: boolean;
}): Promise<{ tables: number }> {
  const existing = await userTableCount(opts.url);
  if (existing > 0 && !opts.force) {
    throw new BackupError(
      `the target database is not empty (${existing} tables). Restore into an empty database` +
        ' (createdb portal_restored), or add --force to drop and recreate what the backup holds.',
      3,
    );
  }
  const { dbname, env } = libpqTarget(opts.url);
  await runTool(
    'pg_restore',
    [
      `--dbname=${dbname}`,
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      ...(existing > 0 ? ['--clean', '--if-exists'] : []),
      opts.file,
    ],
    env,
  );
  return { tables: await userTableCount(opts.url) };
}
