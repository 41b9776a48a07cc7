/**
 * Exclusive lock on DATA_DIR. Two PGlite processes on one directory silently lose committed rows,
 * so a second server must refuse to start. The lock file holds the owner's pid; a lock whose pid
 * is no longer alive (after kill -9) is stale and taken over.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
    readonly ownerHost: string,
  ) {
    super(
      `数据目录 ${dataDir} 正被另一个门户进程使用 (pid ${ownerPid} on ${ownerHost})。` +
        ` The data directory ${dataDir} is locked by another portal process (pid ${ownerPid} on ${ownerHost}).` +
        ' Stop it first, or start this one with a different DATA_DIR.',
    );
  }
}

interface LockInfo {
  pid: number;
  host: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'portal.lock');
  const info: LockInfo = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      fs.writeSync(fd, JSON.stringify(info));
      fs.closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          try {
            const current = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
            if (current.pid === process.pid) fs.rmSync(file, { force: true });
          } catch {
            /* already gone */
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner: LockInfo | undefined;
    try {
      owner = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
    } catch {
      owner = undefined; // half-written or unreadable: the writer died between open and write
    }
    const sameHost = !owner || owner.host === os.hostname();
    if (owner && (!sameHost || alive(owner.pid))) {
      throw new DataDirLockedError(dataDir, owner.pid, owner.host);
    }
    fs.rmSync(file, { force: true });
  }
  throw new Error(`Could not take the lock ${file}`);
}
