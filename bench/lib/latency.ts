/**
 * Latency under load with autocannon: every 2xx response's own time in ms, to the microsecond
 * (autocannon's summary histogram keeps whole milliseconds), over paths taken in turn.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';

/** The q-quantile of latencies (sorted in place). */
export function percentile(ms: number[], q: number): number {
  if (ms.length === 0) return NaN;
  ms.sort((a, b) => a - b);
  return ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
}

export async function cannon(
  url: string,
  cookie: string,
  paths: string[],
  duration: number,
  connections: number,
): Promise<{ ms: number[]; seconds: number; errors: number; non2xx: number }> {
  let i = 0;
  const ms: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        headers: cookie ? { cookie } : {},
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    // Each response's time in ms with microseconds (the summary's histogram keeps whole milliseconds).
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) ms.push(responseTime);
    });
  });
  return { ms, seconds: result.duration, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

/** User + system CPU time of a process so far, ms (Linux clock ticks are 10 ms). */
export function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Waits until the server has worked off the previous workload: autocannon stops sending when its time
 * is up, but requests already in flight (a batch of 100 can take seconds under load) still run, and
 * would be measured as the next workload's cost. Quiet: under 10 % of one core over 300 ms (at most 60 s).
 */
export async function untilQuiet(pid: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const before = cpuOf(pid);
    await new Promise((r) => setTimeout(r, 300));
    if (cpuOf(pid) - before < 30 || Date.now() > deadline) return;
  }
}

/** Resolves once the server (its log) says the OCS fuzzy index is loaded; it loads after listening. */
export function untilFuzzyIndexLoaded(server: { stdout: string[] }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      const out = server.stdout.join('');
      if (out.includes('ocs fuzzy index loaded')) resolve();
      else if (out.includes('ocs fuzzy index not loaded')) reject(new Error('index load failed'));
      else setTimeout(check, 200);
    };
    check();
  });
}
