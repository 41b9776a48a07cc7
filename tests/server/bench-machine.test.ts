/** bench/lib/machine.ts: the CPUs' idle share from /proc/stat, as bench:ocs reports it per workload. */
import fs from 'node:fs';
import { cpuTicks, idleShare, parseCpuLine } from '../../bench/lib/machine';

describe('the CPUs idle share', () => {
  test("parses /proc/stat's cpu line: idle and iowait are idle, user to steal are the total", () => {
    expect(parseCpuLine('cpu  100 5 50 800 40 3 2 0 0 0')).toEqual({ idle: 840, total: 1000 });
    expect(parseCpuLine('cpu 1 2 3 4 5 6 7 8')).toEqual({ idle: 9, total: 36 });
  });

  test('refuses anything else: a per-CPU line, too few fields, not numbers, negative, empty', () => {
    for (const bad of [
      'cpu0 100 5 50 800 40 3 2 0',
      'cpu 1 2 3 4 5 6 7',
      'cpu a b c d e f g h',
      'cpu 1 2 3 -4 5 6 7 8',
      '',
    ]) {
      expect(parseCpuLine(bad)).toBeNull();
    }
  });

  test('the share between two readings; null without both, or when no time passed', () => {
    const a = { idle: 840, total: 1000 };
    expect(idleShare(a, { idle: 940, total: 1400 })).toBe(0.25);
    expect(idleShare(a, { idle: 1240, total: 1400 })).toBe(1);
    expect(idleShare(a, a)).toBeNull();
    expect(idleShare(null, a)).toBeNull();
    expect(idleShare(a, null)).toBeNull();
  });

  test('reads this machine where /proc/stat exists, and a busy stretch is not all idle', () => {
    const before = cpuTicks();
    if (!fs.existsSync('/proc/stat')) {
      expect(before).toBeNull();
      return;
    }
    expect(before).toEqual({ idle: expect.any(Number), total: expect.any(Number) });
    const until = Date.now() + 200;
    let spin = 0;
    while (Date.now() < until) spin++;
    const share = idleShare(before, cpuTicks());
    expect(spin).toBeGreaterThan(0);
    // One core of this machine's CPUs was busy spinning the whole time.
    expect(share).not.toBeNull();
    expect(share!).toBeLessThan(1);
  });
});
