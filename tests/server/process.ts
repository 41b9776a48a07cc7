/** Starts the real server as a child process (PORT=0) and reports the port it bound. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import { track } from '../fixtures/tracked';

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  stdout: string[];
  stderr: string[];
  exited: Promise<Exit>;
}

const ROOT = path.resolve(__dirname, '../..');

/** The server entry through tsx; e2e passes ['scripts/start.mjs'] to go through `npm start`'s path. */
const SERVER_ARGS = ['--import', 'tsx', path.join(ROOT, 'server/main.ts')];

type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * A child process of a test, stopped (SIGKILL: a child left behind by a failed test has nothing to
 * finish) with the test that started it even when the test fails or times out (tests/fixtures/tracked.ts).
 */
export function spawnTracked(
  command: string,
  args: string[],
  options: SpawnOptions,
): { proc: ChildProcess; exited: Promise<Exit> } {
  const proc = spawn(command, args, options);
  const exited = new Promise<Exit>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const tracked = track(
    `${path.basename(args.at(-1) ?? command)} (pid ${proc.pid})`,
    async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
    proc.pid,
  );
  void exited.then(() => tracked.forget());
  return { proc, exited };
}

export function spawnServer(
  env: Record<string, string>,
  args: string[] = SERVER_ARGS,
): {
  proc: ChildProcess;
  ready: Promise<ServerProcess>;
  exited: ServerProcess['exited'];
  stdout: string[];
  stderr: string[];
} {
  const { proc, exited } = spawnTracked(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  proc.stderr!.on('data', (d) => stderr.push(String(d)));
  const ready = new Promise<ServerProcess>((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d) => {
      const s = String(d);
      stdout.push(s);
      buf += s;
      const m = /"port":(\d+),"database":"(pglite|postgres)","msg":"portal listening/.exec(buf);
      if (m) {
        const port = Number(m[1]);
        resolve({ proc, port, url: `http://127.0.0.1:${port}`, stdout, stderr, exited });
      }
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`server exited before listening (code ${code}, signal ${signal}): ${stderr.join('')}`)),
    );
  });
  ready.catch(() => undefined); // callers that expect a refusal only await `exited`
  return { proc, ready, exited, stdout, stderr };
}
