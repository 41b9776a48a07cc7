/**
 * Every background job of the server, in one place: the module plugins add their jobs here
 * (`app.scheduler.every(...)`, `app.scheduler.atStart(...)`) and the scheduler starts them when the app is
 * ready and stops them, waiting for a round in flight, when it closes. No module keeps a timer of its own.
 *
 * A job runs in rounds that never overlap: run, wait `everyMs` (or until `wake()`), run again. A failed
 * round is logged and the next one comes as usual. `GET`-able as `app.scheduler.list()` for the curious.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface JobOptions {
  /** Run once before the first round (recovering orphans, loading an index). */
  setup?: () => Promise<unknown>;
  /** Run once after the last round when the app closes (a final flush). */
  teardown?: () => Promise<unknown>;
}

export interface JobHandle {
  readonly name: string;
  /** New work arrived: run the next round now instead of at the end of the wait. */
  wake(): void;
}

interface Job extends JobHandle {
  everyMs: number;
  start(): void;
  stop(): Promise<void>;
}

export class Scheduler {
  private readonly jobs: Job[] = [];
  private started = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** A job that runs every `everyMs` (the first round right at start). */
  every(name: string, everyMs: number, run: () => Promise<unknown>, opts: JobOptions = {}): JobHandle {
    const job = this.loop(name, everyMs, run, opts);
    this.add(job);
    return job;
  }

  /** A one-off task at start, in the background (the app does not wait for it to be ready). */
  atStart(name: string, run: () => Promise<unknown>): void {
    let current: Promise<unknown> = Promise.resolve();
    this.add({
      name,
      everyMs: 0,
      wake: () => undefined,
      start: () => {
        current = run().catch((err) => this.log.error({ err, job: name }, 'start-up task failed'));
      },
      stop: async () => {
        await current;
      },
    });
  }

  list(): { name: string; everyMs: number }[] {
    return this.jobs.map(({ name, everyMs }) => ({ name, everyMs }));
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs) job.start();
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await Promise.all(this.jobs.map((job) => job.stop()));
  }

  private add(job: Job): void {
    if (this.jobs.some((j) => j.name === job.name)) throw new Error(`job ${job.name} added twice`);
    this.jobs.push(job);
    if (this.started) job.start();
  }

  private loop(name: string, everyMs: number, run: () => Promise<unknown>, opts: JobOptions): Job {
    const log = this.log;
    let running = false;
    let wakePending = false;
    let wakeUp: (() => void) | null = null;
    let current: Promise<void> = Promise.resolve();
    const round = (what: string, fn: () => Promise<unknown>) =>
      fn().then(
        () => undefined,
        (err) => log.error({ err, job: name }, `background job ${what} failed`),
      );
    return {
      name,
      everyMs,
      wake() {
        wakePending = true;
        wakeUp?.();
      },
      start() {
        if (running) return;
        running = true;
        current = (async () => {
          if (opts.setup) await round('setup', opts.setup);
          while (running) {
            wakePending = false;
            await round('round', run);
            if (!running || wakePending) continue;
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, everyMs);
              wakeUp = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wakeUp = null;
          }
          if (opts.teardown) await round('teardown', opts.teardown);
        })();
      },
      async stop() {
        running = false;
        wakeUp?.();
        await current;
      },
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
  }
}

/** Decorates `app.scheduler`; jobs start when the app is ready and stop when it closes. */
export default fp(
  async function schedulerPlugin(app: FastifyInstance) {
    const scheduler = new Scheduler(app.log);
    app.decorate('scheduler', scheduler);
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('onClose', async () => scheduler.stop());
  },
  { name: 'scheduler' },
);
