// A descriptor of the WAL segment last flushed, for the thread that flushes (pglite-worker.mjs and
// wal-flusher.mjs each keep their own). fdatasync flushes the file (the inode), whoever wrote it, and
// Postgres may close its own descriptor while a flush runs. Kept open until another segment is flushed
// (a segment Postgres renames or removes meanwhile stays the same inode; flushing it is harmless).
// Plain JS, like the threads that use it.
import fs from 'node:fs';

export function segmentDescriptor() {
  let open = null;
  return {
    /** The descriptor of `file`, opening it (and closing the previous one) when it is another. */
    of(file) {
      if (open?.file !== file) {
        if (open) fs.closeSync(open.fd);
        open = null;
        open = { file, fd: fs.openSync(file, 'r') };
      }
      return open.fd;
    },
    close() {
      if (open) fs.closeSync(open.fd);
      open = null;
    },
  };
}
