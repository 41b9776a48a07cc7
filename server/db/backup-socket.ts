/**
 * Online backups of the embedded database. Two processes must never open one PGlite directory, so
 * while the server runs (and holds the DATA_DIR lock) `npm run backup` does not open it: it asks the
 * server, over the unix socket DATA_DIR/backup.sock, to make the backup through its own PGlite worker
 * (server/db/backup.ts) and stream it back.
 *
 * Who may ask: the socket is created with mode 0600 inside DATA_DIR, so only the server's OS user (and
 * root) can connect — the same people who could read the database files anyway. It is not on the
 * network and has no HTTP route. It offers one operation, `backup`, one at a time.
 *
 * Protocol: the client sends one JSON line `{"op":"backup","secretKey":true}`; the server answers one
 * JSON line, `{"ok":true,"bytes":N,"manifest":{…}}` followed by exactly N bytes of the archive, or
 * `{"ok":false,"error":"…"}`. The server builds the archive in DATA_DIR first (a `.backup-*` file,
 * removed afterwards and at the next start) so the byte count is known before it is sent.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BackupError, writePgliteBackup, type BackupManifest } from './backup';
import type { Database } from './database';

/** Longest unix socket path Linux accepts (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

export function backupSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'backup.sock');
}

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface BackupSocket {
  /** Where it listens; undefined when the path was too long for a unix socket. */
  path: string | undefined;
  close(): Promise<void>;
}

/** Reads the request line (at most 1 KiB, within 10 s). */
function readRequest(conn: net.Socket): Promise<{ op?: string; secretKey?: boolean }> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => fail(new Error('no request within 10 s')), 10_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      conn.off('data', onData);
      reject(err);
    };
    const onData = (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) {
        if (buf.length > 1024) fail(new Error('request too long'));
        return;
      }
      clearTimeout(timer);
      conn.off('data', onData);
      try {
        resolve(JSON.parse(buf.slice(0, nl)) as { op?: string; secretKey?: boolean });
      } catch {
        reject(new Error('request is not JSON'));
      }
    };
    conn.on('data', onData);
    conn.once('error', fail);
    conn.once('end', () => fail(new Error('connection closed before a request')));
  });
}

/**
 * Starts the backup socket of the server on the embedded database. Call it only while holding the
 * DATA_DIR lock: a socket file left by a previous server is removed.
 */
export async function startBackupSocket(opts: {
  database: Database;
  dataDir: string;
  log: Log;
}): Promise<BackupSocket> {
  const dataDir = path.resolve(opts.dataDir);
  const socketPath = backupSocketPath(dataDir);
  for (const name of fs.readdirSync(dataDir)) {
    if (name.startsWith('.backup-')) fs.rmSync(path.join(dataDir, name), { force: true }); // left by a crash
  }
  if (socketPath.length > MAX_SOCKET_PATH) {
    opts.log.warn(
      { socketPath },
      'DATA_DIR path too long for a unix socket: `npm run backup` cannot reach the running server (stop it to back up)',
    );
    return { path: undefined, close: async () => undefined };
  }
  fs.rmSync(socketPath, { force: true });

  let running: Promise<void> | undefined;
  const connections = new Set<net.Socket>();

  const serve = async (conn: net.Socket) => {
    const answer = (obj: object) => conn.end(`${JSON.stringify(obj)}\n`);
    let request: { op?: string; secretKey?: boolean };
    try {
      request = await readRequest(conn);
    } catch (err) {
      answer({ ok: false, error: (err as Error).message });
      return;
    }
    if (request.op !== 'backup') return answer({ ok: false, error: `unknown op ${String(request.op)}` });
    if (running) return answer({ ok: false, error: 'a backup is already running' });
    const tmp = path.join(dataDir, `.backup-${process.pid}-${crypto.randomBytes(6).toString('hex')}.tar.gz`);
    const job = (async () => {
      const t0 = Date.now();
      try {
        const manifest = await writePgliteBackup({
          database: opts.database,
          dataDir,
          outFile: tmp,
          via: 'server',
          secretKey: request.secretKey !== false,
        });
        const bytes = fs.statSync(tmp).size;
        conn.write(`${JSON.stringify({ ok: true, bytes, manifest })}\n`);
        await pipeline(fs.createReadStream(tmp), conn);
        opts.log.info({ bytes, ms: Date.now() - t0 }, 'backup sent through the backup socket');
      } catch (err) {
        opts.log.error({ err }, 'backup through the backup socket failed');
        if (!conn.destroyed) answer({ ok: false, error: (err as Error).message });
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    })();
    running = job;
    await job;
    running = undefined;
  };

  const server = net.createServer((conn) => {
    connections.add(conn);
    conn.on('close', () => connections.delete(conn));
    conn.on('error', () => undefined); // a client that went away; serve() cleans up
    void serve(conn);
  });
  // Created 0600 from the start (umask), not only after the chmod below.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (err) {
    // The portal itself does not need the socket: serve on, without online backups.
    opts.log.error({ err, socketPath }, 'backup socket could not listen: `npm run backup` needs the server stopped');
    return { path: undefined, close: async () => undefined };
  } finally {
    process.umask(umask);
  }
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (err) => opts.log.error({ err }, 'backup socket error'));

  return {
    path: socketPath,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const c of connections) c.destroy();
      });
      await running?.catch(() => undefined); // the dump itself cannot be interrupted
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/**
 * Asks the server listening on `socketPath` for a backup and writes it to `outFile` (through
 * `outFile.partial`, renamed once every byte has arrived).
 */
export async function requestServerBackup(
  socketPath: string,
  outFile: string,
  opts: { secretKey: boolean },
): Promise<BackupManifest> {
  const partial = `${outFile}.partial`;
  const conn = net.connect(socketPath);
  try {
    await new Promise<void>((resolve, reject) => {
      conn.once('connect', resolve);
      conn.once('error', (err: NodeJS.ErrnoException) =>
        reject(
          new BackupError(
            `DATA_DIR is locked by a running process, but its backup socket ${socketPath} does not answer` +
              ` (${err.code ?? err.message}). If that process is the portal server, it is older than this` +
              ' version or runs as another user: run the backup as the server’s user, or stop the server and' +
              ' run the backup again. A seed or restore script also holds the lock: wait for it to finish.',
          ),
        ),
      );
    });
    conn.write(`${JSON.stringify({ op: 'backup', secretKey: opts.secretKey })}\n`);

    const out = fs.createWriteStream(partial, { flags: 'wx', mode: 0o600 });
    let head = '';
    let header: { ok: boolean; bytes?: number; manifest?: BackupManifest; error?: string } | undefined;
    let received = 0;
    await pipeline(
      conn,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          let body = chunk;
          if (!header) {
            head += chunk.toString('latin1');
            const nl = head.indexOf('\n');
            if (nl < 0) continue;
            header = JSON.parse(Buffer.from(head.slice(0, nl), 'latin1').toString('utf8')) as typeof header;
            body = Buffer.from(head.slice(nl + 1), 'latin1');
          }
          if (!header!.ok) throw new BackupError(`the server could not make the backup: ${header!.error}`);
          received += body.length;
          if (body.length) yield body;
        }
      },
      out,
    );
    if (!header) throw new BackupError('the server closed the backup socket without an answer');
    if (!header.ok) throw new BackupError(`the server could not make the backup: ${header.error}`);
    if (received !== header.bytes)
      throw new BackupError(`the backup arrived incomplete (${received} of ${header.bytes} bytes)`);
    fs.renameSync(partial, outFile);
    return header.manifest!;
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    conn.destroy();
  }
}
