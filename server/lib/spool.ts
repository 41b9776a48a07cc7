/**
 * Rows an import prepared, spooled to a temporary file in JSON chunks instead of held in memory. The
 * worker thread that prepares a file appends each chunk as soon as it is full (SpoolWriter), so neither
 * it nor the main thread ever holds more than one chunk of a large file; the main thread reads them back
 * one at a time (readSpool), without blocking, to store or count them. The main thread owns the file:
 * it makes the folder before the worker runs (createTempFile) and removes it (removeTempFile) whatever the
 * worker did, so a worker stopped mid-file (timeout, heap limit) leaves nothing behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One chunk's place in the file: a JSON array of `rows` rows. */
export interface SpoolChunk {
  offset: number;
  length: number;
  rows: number;
}

/** A spool file and its chunks, in the order they were written. */
export interface Spool {
  file: string;
  chunks: SpoolChunk[];
}

/**
 * The path of a file `name` in a fresh private folder (0700) of the system's temporary folder: for a
 * spool the worker will write, or an upload saved as it arrives (server/http/upload.ts).
 */
export async function createTempFile(name = 'rows.json'): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'portal-import-'));
  return path.join(dir, name);
}

/** Removes a file made by createTempFile and its folder; never fails (one already removed is fine). */
export async function removeTempFile(file: string): Promise<void> {
  await fs.promises.rm(path.dirname(file), { recursive: true, force: true }).catch(() => undefined);
}

/**
 * Writes rows to a spool file in chunks of `chunkRows`, each written as soon as it is full
 * (synchronously: it runs on the worker thread that made the rows).
 */
export class SpoolWriter {
  private readonly fd: number;
  private offset = 0;
  private closed = false;
  /** The chunk being filled: its rows as JSON texts. */
  private pending: string[] = [];
  readonly chunks: SpoolChunk[] = [];

  /** The file must not exist yet (it is created 0600: staged rosters hold personal data). */
  constructor(
    readonly file: string,
    private readonly chunkRows: number,
  ) {
    this.fd = fs.openSync(file, 'wx', 0o600);
  }

  /** One row, as its JSON text. */
  push(rowJson: string): void {
    this.pending.push(rowJson);
    if (this.pending.length >= this.chunkRows) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    const bytes = Buffer.from(`[${rows.join(',')}]`);
    for (let at = 0; at < bytes.length;) at += fs.writeSync(this.fd, bytes, at, bytes.length - at, this.offset + at);
    this.chunks.push({ offset: this.offset, length: bytes.length, rows: rows.length });
    this.offset += bytes.length;
  }

  /** Forgets every chunk written so far (the rows they held no longer count). */
  reset(): void {
    fs.ftruncateSync(this.fd, 0);
    this.offset = 0;
    this.pending = [];
    this.chunks.length = 0;
  }

  /** Writes the last chunk and closes the file; closing again does nothing (a failed parse closes it too). */
  close(): Spool {
    if (!this.closed) {
      this.closed = true;
      try {
        this.flush();
      } finally {
        fs.closeSync(this.fd);
      }
    }
    return { file: this.file, chunks: this.chunks };
  }
}

/** The chunks of a spool as JSON texts, one at a time. */
export async function* readSpool(spool: Spool): AsyncGenerator<{ json: string; rows: number }> {
  const handle = await fs.promises.open(spool.file, 'r');
  try {
    for (const c of spool.chunks) {
      const buf = Buffer.alloc(c.length);
      for (let at = 0; at < c.length;) {
        const { bytesRead } = await handle.read(buf, at, c.length - at, c.offset + at);
        if (bytesRead === 0) throw new Error(`spool ${spool.file} ends before its chunks do`);
        at += bytesRead;
      }
      yield { json: buf.toString('utf8'), rows: c.rows };
    }
  } finally {
    await handle.close();
  }
}
