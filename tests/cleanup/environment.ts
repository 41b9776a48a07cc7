/**
 * The Node test environment of the server, multi-instance and e2e legs, plus one duty: stopping what a
 * test started (tests/fixtures/tracked.ts) even when the test failed or timed out. jest-circus tells
 * an environment when a test starts and when it is done (after its afterEach hooks), and when the
 * file's run is over (after its afterAll hooks), so the file's own cleanup always runs first and this
 * only catches what it missed.
 */
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';
import { TestEnvironment } from 'jest-environment-node';
import type { TrackedEntry, TrackedRegistry } from '../fixtures/tracked';

/** A stop that does not finish within this is reported and left behind, so the run cannot hang on it. */
const STOP_BOUND_MS = 15_000;

export default class CleanupEnvironment extends TestEnvironment {
  private readonly registry: TrackedRegistry = { live: new Set(), inTest: false };
  private readonly onExit = () => {
    // The worker is exiting: a child still running would outlive it. Only synchronous calls work here.
    for (const entry of this.registry.live) {
      if (entry.pid) {
        try {
          process.kill(entry.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  };

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    (this.global as unknown as Record<string, unknown>).__portalTracked = this.registry;
    process.on('exit', this.onExit);
  }

  private async stop(which: (e: TrackedEntry) => boolean): Promise<void> {
    const entries = [...this.registry.live].filter(which);
    await Promise.all(
      entries.map(async (entry) => {
        let timer: NodeJS.Timeout | undefined;
        const bound = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), STOP_BOUND_MS);
        });
        try {
          if ((await Promise.race([entry.stop(), bound])) === 'late') {
            process.stderr.write(`cleanup: ${entry.name} did not stop within ${STOP_BOUND_MS} ms\n`);
          }
        } catch (err) {
          process.stderr.write(`cleanup: stopping ${entry.name} failed: ${(err as Error).message}\n`);
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  async handleTestEvent(event: Circus.Event): Promise<void> {
    if (event.name === 'test_start') this.registry.inTest = true;
    if (event.name === 'test_done' || event.name === 'test_skip' || event.name === 'test_todo') {
      this.registry.inTest = false;
      await this.stop((e) => e.inTest);
    }
    if (event.name === 'run_finish') await this.stop(() => true);
  }

  async teardown(): Promise<void> {
    await this.stop(() => true);
    process.off('exit', this.onExit);
    await super.teardown();
  }
}
