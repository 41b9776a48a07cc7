/**
 * Where a machine's CPU time went over a stretch of a bench: read /proc/stat's first line before and
 * after, and `idleShare` says what share of all CPUs' time was idle (idle and waiting for I/O). A load
 * whose idle share stays well above zero was held back by waiting (latency), not by the CPUs.
 */
import fs from 'node:fs';

/** All CPUs' clock ticks so far: idle (idle + iowait) and in total (user to steal), or null off Linux. */
export interface CpuTicks {
  idle: number;
  total: number;
}

/** Parses /proc/stat's `cpu` line (user nice system idle iowait irq softirq steal ...). */
export function parseCpuLine(line: string): CpuTicks | null {
  const parts = line.trim().split(/\s+/);
  if (parts[0] !== 'cpu' || parts.length < 9) return null;
  const f = parts.slice(1, 9).map(Number);
  if (f.some((n) => !Number.isFinite(n) || n < 0)) return null;
  return { idle: f[3]! + f[4]!, total: f.reduce((a, b) => a + b, 0) };
}

export function cpuTicks(): CpuTicks | null {
  try {
    return parseCpuLine(fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!);
  } catch {
    return null;
  }
}

/** The idle share (0–1) of all CPUs between two readings, or null when either is missing or no time passed. */
export function idleShare(before: CpuTicks | null, after: CpuTicks | null): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return (after.idle - before.idle) / (after.total - before.total);
}
