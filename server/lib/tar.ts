/**
 * A minimal ustar writer and streaming reader: regular files only, names under 100 bytes. The backup
 * archive (server/db/backup.ts) is a gzipped tar so that `tar tzf` and `tar xzf` can open it by hand.
 * Sizes past ustar's 8 GiB octal field use GNU tar's base-256 form, which GNU tar and bsdtar read.
 */
import fs from 'node:fs';

const BLOCK = 512;

export interface TarFile {
  name: string;
  /** The content, or the path of a file to copy (its size must not change while it is read). */
  source: Buffer | { path: string };
  mode?: number;
  mtime?: Date;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mode: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 99) throw new Error(`tar: name too long: ${name}`);
  nameBytes.copy(h, 0);
  h.write(octal(mode & 0o7777, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii'); // uid
  h.write(octal(0, 8), 116, 'ascii'); // gid
  if (size < 8 ** 11) {
    h.write(octal(size, 12), 124, 'ascii');
  } else {
    h[124] = 0x80; // base-256, big-endian in the remaining 11 bytes
    let v = BigInt(size);
    for (let i = 135; i > 124; i--) {
      h[i] = Number(v & 0xffn);
      v >>= 8n;
    }
  }
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.fill(' ', 148, 156); // checksum field counts as spaces while summing
  h.write('0', 156, 'ascii'); // regular file
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return Buffer.alloc(rest === 0 ? 0 : BLOCK - rest);
}

/** The archive as a stream of chunks (pipe it through gzip into a file or a socket). */
export async function* tarStream(files: TarFile[]): AsyncGenerator<Buffer> {
  for (const file of files) {
    const mode = file.mode ?? 0o600;
    const mtime = file.mtime ?? new Date();
    if (Buffer.isBuffer(file.source)) {
      yield header(file.name, file.source.length, mode, mtime);
      yield file.source;
      yield padding(file.source.length);
      continue;
    }
    const size = fs.statSync(file.source.path).size;
    yield header(file.name, size, mode, mtime);
    let sent = 0;
    for await (const chunk of fs.createReadStream(file.source.path)) {
      sent += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (sent !== size) throw new Error(`tar: ${file.source.path} changed size while it was archived`);
    yield padding(size);
  }
  yield Buffer.alloc(BLOCK * 2); // end of archive
}

/** Where the reader sends one entry's bytes. */
export interface TarSink {
  write(chunk: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

function parseSize(h: Buffer): number {
  if (h[124]! & 0x80) {
    let v = 0n;
    for (let i = 125; i < 136; i++) v = (v << 8n) | BigInt(h[i]!);
    return Number(v);
  }
  return parseInt(h.toString('ascii', 124, 136).replace(/\0.*$/s, '').trim() || '0', 8);
}

function checkHeader(h: Buffer): void {
  const stored = parseInt(h.toString('ascii', 148, 156).replace(/\0.*$/s, '').trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  if (stored !== sum) throw new Error('tar: bad header checksum (not a tar archive, or a damaged one)');
}

/**
 * Reads a tar stream; `open` returns where an entry's bytes go (undefined skips it). Stops at the end
 * marker and refuses a stream that ends inside an entry or without the marker.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  open: (entry: { name: string; size: number }) => TarSink | undefined,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let sink: TarSink | undefined;
  let remaining = 0; // bytes of the current entry still to come
  let skip = 0; // padding after it
  let inEntry = false;
  let ended = false;
  for await (const chunk of source) {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (!ended) {
      if (inEntry) {
        if (remaining > 0) {
          if (pending.length === 0) break;
          const take = Math.min(remaining, pending.length);
          if (sink) await sink.write(pending.subarray(0, take));
          pending = pending.subarray(take);
          remaining -= take;
          if (remaining > 0) break;
        }
        if (skip > 0) {
          const take = Math.min(skip, pending.length);
          pending = pending.subarray(take);
          skip -= take;
          if (skip > 0) break;
        }
        if (sink) await sink.end();
        sink = undefined;
        inEntry = false;
      }
      if (pending.length < BLOCK) break;
      const h = pending.subarray(0, BLOCK);
      pending = pending.subarray(BLOCK);
      if (h.every((b) => b === 0)) {
        ended = true;
        break;
      }
      checkHeader(h);
      const name = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
      const type = String.fromCharCode(h[156]!);
      const size = parseSize(h);
      sink = type === '0' || type === '\0' ? open({ name, size }) : undefined;
      remaining = size;
      skip = padding(size).length;
      inEntry = true;
    }
  }
  if (!ended) throw new Error('tar: the archive is truncated');
}
