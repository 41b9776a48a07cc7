/**
 * A circuit breaker per upstream bank, in this instance's memory: after `threshold` failures in a row
 * the upstream is skipped for `cooldownMs`; then one trial call decides (success closes the breaker,
 * failure opens it again). Skipped calls cost nothing and are not counted as failures.
 */
export type BreakerState = 'closed' | 'open' | 'half_open';

export class CircuitBreaker {
  failures = 0;
  openUntil = 0;
  private trial = false;

  constructor(
    public threshold: number,
    public cooldownMs: number,
  ) {}

  state(now = Date.now()): BreakerState {
    if (this.openUntil === 0) return 'closed';
    return now < this.openUntil ? 'open' : 'half_open';
  }

  /** Whether a call may go now (in half-open, only the one trial call). */
  tryAcquire(now = Date.now()): boolean {
    const s = this.state(now);
    if (s === 'closed') return true;
    if (s === 'open' || this.trial) return false;
    this.trial = true;
    return true;
  }

  /** A call that was allowed did not happen after all (no budget left). */
  release(): void {
    this.trial = false;
  }

  success(): void {
    this.failures = 0;
    this.openUntil = 0;
    this.trial = false;
  }

  /** Returns true when this failure opened the breaker (it was closed, or this was the trial call). */
  failure(now = Date.now()): boolean {
    const wasTrial = this.trial;
    const wasClosed = this.state(now) === 'closed';
    this.trial = false;
    this.failures++;
    if (!wasTrial && this.failures < this.threshold) return false;
    this.openUntil = now + this.cooldownMs;
    return wasTrial || wasClosed;
  }
}
