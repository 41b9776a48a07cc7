/** The background-job scheduler: rounds never overlap, wake() runs the next round at once, failures are logged, stop waits. */
import pino from 'pino';
import { Writable } from 'node:stream';
import { Scheduler } from '../../server/scheduler';

function quietLog() {
  const lines: string[] = [];
  const log = pino(
    { level: 'error' },
    new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  );
  return { log, lines };
}

/** A promise and its resolver, to hold a round open from the test. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('Scheduler', () => {
  it('runs the first round at start, the next on wake(), and never two rounds at once', async () => {
    const { log } = quietLog();
    const s = new Scheduler(log);
    let active = 0;
    let maxActive = 0;
    const rounds: number[] = [];
    let hold = gate();
    let entered = gate();
    const job = s.every('probe', 3_600_000, async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      rounds.push(rounds.length + 1);
      entered.open();
      await hold.promise;
      active--;
    });
    s.start();
    await entered.promise;
    expect(rounds).toEqual([1]);
    // Woken while a round is in flight: the next round starts only after this one ends.
    entered = gate();
    job.wake();
    job.wake();
    const first = hold;
    hold = gate();
    first.open();
    await entered.promise;
    expect(rounds).toEqual([1, 2]);
    hold.open();
    await s.stop();
    expect(maxActive).toBe(1);
    expect(rounds).toEqual([1, 2]);
  });

  it('logs a failed round with the job name and keeps the job alive', async () => {
    const { log, lines } = quietLog();
    const s = new Scheduler(log);
    let n = 0;
    const second = gate();
    const job = s.every('flaky', 3_600_000, async () => {
      n++;
      if (n === 1) throw new Error('boom');
      second.open();
    });
    s.start();
    await new Promise((r) => setImmediate(r));
    job.wake();
    await second.promise;
    await s.stop();
    expect(n).toBe(2);
    expect(lines.join('')).toContain('"job":"flaky"');
    expect(lines.join('')).toContain('boom');
  });

  it('runs setup before the first round, and teardown after the last when stopped', async () => {
    const { log } = quietLog();
    const s = new Scheduler(log);
    const calls: string[] = [];
    const ran = gate();
    s.every(
      'ordered',
      3_600_000,
      async () => {
        calls.push('round');
        ran.open();
      },
      { setup: async () => void calls.push('setup'), teardown: async () => void calls.push('teardown') },
    );
    s.start();
    await ran.promise;
    await s.stop();
    expect(calls).toEqual(['setup', 'round', 'teardown']);
  });

  it('stop() waits for a start-up task in flight, and a name can be added only once', async () => {
    const { log } = quietLog();
    const s = new Scheduler(log);
    const hold = gate();
    let done = false;
    s.atStart('load', async () => {
      await hold.promise;
      done = true;
    });
    expect(() => s.atStart('load', async () => undefined)).toThrow(/twice/);
    s.start();
    const stopped = s.stop();
    hold.open();
    await stopped;
    expect(done).toBe(true);
    expect(s.list()).toEqual([{ name: 'load', everyMs: 0 }]);
  });
});
