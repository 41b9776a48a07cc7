/**
 * Runs CPU- and memory-heavy work (parsing an uploaded spreadsheet) in a worker thread, so the event
 * loop goes on answering other requests meanwhile. One worker at a time, kept warm for a short while
 * and then ended, so the memory a large file took is returned; its heap is capped, and a file that
 * needs more (or too long) is refused with 413 instead of taking the process down.
 */
import path from 'node:path';
import Piscina from 'piscina';
import { HttpError } from '../errors';

export interface TaskPoolOptions {
  /** The worker's old-generation heap, in MB. */
  maxHeapMb?: number;
  /**
   * The worker's young generation, in MB (default 8). A parse makes a short-lived object per cell or
   * element; V8's default young generation (tens of MB) fills with them between collections, a small one
   * is collected more often and keeps the resident memory down (a 90 MB sheet's parse took 110 MB at
   * 4 MB instead of 150), with no slowdown the import benchmark could see.
   */
  maxYoungMb?: number;
  /** A task running longer is stopped (its worker ended). */
  timeoutMs?: number;
  /** An idle worker ends after this long. */
  idleMs?: number;
}

type Outcome =
  | { ok: true; value: unknown }
  | { ok: false; error: { message: string; statusCode?: number; errorCode?: string; data?: Record<string, string[]> } };

export class TaskPool {
  private readonly pool: Piscina;
  private readonly timeoutMs: number;

  constructor(opts: TaskPoolOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? 120_000;
    this.pool = new Piscina({
      filename: path.join(__dirname, 'task-worker.mjs'),
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: opts.idleMs ?? 30_000,
      resourceLimits: {
        maxOldGenerationSizeMb: opts.maxHeapMb ?? 768,
        maxYoungGenerationSizeMb: opts.maxYoungMb ?? 8,
      },
    });
  }

  /**
   * Calls `exportName(...args)` of the module at `modulePath` (an absolute path) in the worker. A Buffer
   * argument that owns its whole memory (an upload) is moved to the worker rather than copied: the caller
   * gives it up (it reads as empty afterwards).
   */
  async run<T>(modulePath: string, exportName: string, args: unknown[]): Promise<T> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const transferList = args
      .filter((a): a is Buffer => Buffer.isBuffer(a) && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength)
      .map((b) => b.buffer as ArrayBuffer);
    let outcome: Outcome;
    try {
      outcome = await this.pool.run({ modulePath, exportName, args }, { signal, transferList });
    } catch (err) {
      const e = err as Error & { code?: string; name?: string };
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test(e.message)) {
        throw new HttpError(413, 'FILE_TOO_COMPLEX', '文件过大，解析所需内存超出限制；请拆分后分批上传');
      }
      if (signal.aborted) throw new HttpError(413, 'TOO_SLOW', '文件处理时间过长，已停止；请拆分后分批上传');
      throw err;
    }
    if (outcome.ok) return outcome.value as T;
    const { message, statusCode, errorCode, data } = outcome.error;
    if (statusCode && errorCode) throw new HttpError(statusCode, errorCode, message, data);
    throw new Error(message);
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
