/**
 * A test that times out does not leave what it started running: jest gives up on a test at its
 * timeout without running the test's own `finally`, so the legs' test environment
 * (tests/cleanup/environment.ts) stops every process and server a test started once the test is done.
 * Proved on a real jest run of a fixture test that starts a portal and never finishes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnTracked } from './process';

const ROOT = path.resolve(__dirname, '../..');

/** Running, and not a zombie waiting for a parent to reap it. */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test('a test that times out with a portal running leaves no portal behind once its jest run ends', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-leak-'));
  const pidFile = path.join(dir, 'pid');
  let pid = 0;
  try {
    const run = spawnTracked(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/jest/bin/jest.js'),
        '--ci',
        '--runInBand',
        // Without it, a portal left running would keep the run from ending.
        '--forceExit',
        '-c',
        path.join(ROOT, 'tests/cleanup/fixture/jest.config.ts'),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, LEAK_PID_FILE: pidFile, LEAK_DATA_DIR: path.join(dir, 'data') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    run.proc.stdout!.on('data', (d) => (output += String(d)));
    run.proc.stderr!.on('data', (d) => (output += String(d)));
    const { code } = await run.exited;
    expect({ code, timedOut: /Exceeded timeout of 3000 ms/.test(output) }).toEqual({ code: 1, timedOut: true });
    pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(running(pid)).toBe(false);
  } finally {
    if (pid && running(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
