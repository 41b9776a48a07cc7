/**
 * `npm run bench:ui-size`: the JavaScript a first visit to /user/login downloads, raw and gzipped,
 * measured in Chromium against `npm start`'s build on a temporary data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { launch } from '../../tests/e2e/browser';
import { spawnServer } from '../../tests/server/process';

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-ui-'));
  const server = spawnServer({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: 'bench-password-123' }, [
    path.resolve(__dirname, '../../scripts/start.mjs'),
  ]);
  const { url, proc } = await server.ready;
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const scripts: { url: string; raw: number; gzip: number }[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const body = await res.body();
      scripts.push({
        url: new URL(res.url()).pathname,
        raw: body.length,
        gzip: zlib.gzipSync(body, { level: 9 }).length,
      });
    });
    await page.goto(`${url}/user/login`);
    await page.getByLabel('用户名').waitFor();
    await page.waitForLoadState('networkidle');
    scripts.sort((a, b) => b.gzip - a.gzip);
    const kb = (n: number) => (n / 1024).toFixed(1);
    console.log('| script | raw KiB | gzip KiB |\n|---|---|---|');
    for (const s of scripts) console.log(`| ${s.url} | ${kb(s.raw)} | ${kb(s.gzip)} |`);
    const total = scripts.reduce((a, s) => ({ raw: a.raw + s.raw, gzip: a.gzip + s.gzip }), { raw: 0, gzip: 0 });
    console.log(`| **total (${scripts.length} files)** | ${kb(total.raw)} | ${kb(total.gzip)} |`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
