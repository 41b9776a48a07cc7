/** Starts the real server as a child process (PORT=0) and reports the port it bound. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  stdout: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const ROOT = path.resolve(__dirname, '../..');

/** The server entry through tsx; e2e passes ['scripts/start.mjs'] to go through `npm start`'s path. */
const SERVER_ARGS = ['--import', 'tsx', path.join(ROOT, 'server/main.ts')];

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
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
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
