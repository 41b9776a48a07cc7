import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { __E2E__?: { proc: ChildProcess; exited: Promise<unknown>; dataDir: string } }).__E2E__;
  if (!state) return;
  state.proc.kill('SIGTERM');
  await state.exited;
  fs.rmSync(state.dataDir, { recursive: true, force: true });
}
