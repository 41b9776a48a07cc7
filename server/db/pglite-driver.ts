/**
 * A Kysely dialect for PGlite running in a worker thread (pglite-worker.mjs): each query is one
 * message, with no wire protocol in between. PGlite is a single session, so the driver hands out one
 * logical connection at a time; a transaction holds it until commit or rollback.
 */
import type { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * Leading a statement, asks the embedded database to run it with a generic plan (planned once for all
 * parameter values) rather than let Postgres choose; for statements whose custom plans cost more to
 * make than to run, and whose generic plan is as good for every value. A comment anywhere else.
 */
export const GENERIC_PLAN_HINT = '/* plan: generic */ ';

/** An error carrying Postgres' fields, like the pg driver's, so `err.code === '23505'` works. */
export class PgliteError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
  column?: string;
  severity?: string;
  constructor(e: {
    message: string;
    code?: string;
    detail?: string;
    constraint?: string;
    table?: string;
    column?: string;
    severity?: string;
  }) {
    super(e.message);
    Object.assign(this, e);
  }
}

/** Rows cross the thread boundary as structured clones: bytea arrives as Uint8Array; make it a Buffer. */
function toBuffers(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      const v = row[key];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return rows;
}

export class WorkerChannel {
  private nextId = 1;
  /** Milliseconds during which at least one request was outstanding, up to busySince. */
  private busyTotal = 0;
  private busySince = 0;
  private readonly pending = new Map<
    number,
    { resolve: (v: { rows: Record<string, unknown>[]; affectedRows: number }) => void; reject: (e: Error) => void }
  >();

  constructor(private readonly worker: Worker) {
    worker.on(
      'message',
      (msg: {
        type: string;
        id?: number;
        rows?: Record<string, unknown>[];
        affectedRows?: number;
        error?: ConstructorParameters<typeof PgliteError>[0];
      }) => {
        if (msg.id === undefined) return;
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (this.pending.size === 0) this.busyTotal += performance.now() - this.busySince;
        if (msg.type === 'error') p.reject(new PgliteError(msg.error!));
        else p.resolve({ rows: msg.rows ?? [], affectedRows: msg.affectedRows ?? 0 });
      },
    );
    worker.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error('PGlite worker exited'));
      this.pending.clear();
    });
  }

  /** Requests sent to the worker and not answered yet: the worker's queue depth (for /metrics). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Milliseconds so far during which at least one request was waiting for the worker or running. */
  get inUseMs(): number {
    return this.busyTotal + (this.pending.size > 0 ? performance.now() - this.busySince : 0);
  }

  request(message: Record<string, unknown>): Promise<{ rows: Record<string, unknown>[]; affectedRows: number }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.busySince = performance.now();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }
}

/**
 * Statements outside a transaction are sent without waiting for each other (the worker queues them,
 * PGlite runs them in order), so independent requests pipeline. A transaction is exclusive: it waits
 * for statements in flight to finish and holds back new ones until it commits or rolls back, since on a
 * single session they would otherwise run inside it.
 */
class Gate {
  private tx: Promise<void> | null = null;
  private endTx: (() => void) | null = null;
  private inflight = 0;
  private drained: (() => void)[] = [];

  async enter(): Promise<void> {
    while (this.tx) await this.tx;
    this.inflight++;
  }

  leave(): void {
    this.inflight--;
    if (this.inflight === 0) for (const d of this.drained.splice(0)) d();
  }

  async beginExclusive(): Promise<void> {
    while (this.tx) await this.tx;
    this.tx = new Promise<void>((resolve) => (this.endTx = resolve));
    if (this.inflight > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  endExclusive(): void {
    const end = this.endTx;
    this.tx = null;
    this.endTx = null;
    end?.();
  }
}

class WorkerConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    private readonly channel: WorkerChannel,
    private readonly gate: Gate,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const params = compiled.parameters.map((p) => (Buffer.isBuffer(p) ? new Uint8Array(p) : p));
    const run = () => this.channel.request({ type: 'query', sql: compiled.sql, params, tx: this.inTransaction });
    let r: Awaited<ReturnType<typeof run>>;
    if (this.inTransaction) {
      r = await run();
    } else {
      await this.gate.enter();
      try {
        r = await run();
      } finally {
        this.gate.leave();
      }
    }
    return { rows: toBuffers(r.rows) as R[], numAffectedRows: BigInt(r.affectedRows) };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on the embedded database');
  }
}

class WorkerDriver implements Driver {
  private readonly gate = new Gate();

  constructor(private readonly channel: WorkerChannel) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WorkerConnection(this.channel, this.gate);
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = conn as WorkerConnection;
    await this.gate.beginExclusive();
    c.inTransaction = true;
    try {
      await c.executeQuery(
        CompiledQuery.raw(
          settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin',
        ),
      );
    } catch (err) {
      c.inTransaction = false;
      this.gate.endExclusive();
      throw err;
    }
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await this.finish(conn as WorkerConnection, 'commit');
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await this.finish(conn as WorkerConnection, 'rollback');
  }

  private async finish(c: WorkerConnection, statement: 'commit' | 'rollback'): Promise<void> {
    try {
      await c.executeQuery(CompiledQuery.raw(statement));
    } finally {
      c.inTransaction = false;
      this.gate.endExclusive();
    }
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

export function pgliteWorkerDialect(channel: WorkerChannel): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new WorkerDriver(channel),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
