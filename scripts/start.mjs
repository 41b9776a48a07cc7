#!/usr/bin/env node
// `npm start`: build the UI when dist/ is missing or older than its sources, then run the server
// (TypeScript through tsx). Signals are passed on so the server can shut down gracefully.
// `node scripts/start.mjs --build-only`: only the first part (CI builds the UI beside its static checks).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';
import { uiBuildState, writeBuildStamp } from './ui-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const uiDir = path.resolve(root, process.env.UI_DIR || 'dist');

const state = uiBuildState(root, uiDir);
if (state.stale) {
  console.log(`[start] UI ${state.reason}; building it now (about a minute)...`);
  const max = require.resolve('@umijs/max/bin/max.js');
  const t0 = Date.now();
  const res = spawnSync(process.execPath, [max, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MOCK: 'none' },
  });
  if (res.status !== 0) {
    console.error('[start] UI build failed; see the output above.');
    process.exit(res.status ?? 1);
  }
  // After Umi's build, before precompressing: the login page's antd styles as a stylesheet
  // (scripts/antd-styles.tsx), then its first look as HTML (scripts/prerender-login.tsx), which links them.
  for (const [script, what] of [
    ['scripts/antd-styles.tsx', 'Prebuilding the antd styles'],
    ['scripts/prerender-login.tsx', 'Prerendering the login page'],
  ]) {
    const step = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, script), uiDir], {
      cwd: root,
      stdio: 'inherit',
    });
    if (step.status !== 0) {
      console.error(`[start] ${what} failed; see the output above.`);
      process.exit(step.status ?? 1);
    }
  }
  precompress(uiDir);
  writeBuildStamp(root, uiDir, state.hash);
  console.log(`[start] UI built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (process.argv.includes('--build-only')) process.exit(0);

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
