/**
 * `npm run bench:ui-size`: what a first visit to /user/login and /home downloads (bytes on the wire
 * and JavaScript, raw and as sent), measured in Chromium with a cold cache against `npm start`'s build,
 * and the time until the login form is visible (median of 5 cold visits). The same measurement backs
 * the budget test in the e2e leg (tests/e2e/budget.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch } from '../../tests/e2e/browser';
import { firstVisit, HOME_VISIBLE, LOGIN_FORM_VISIBLE } from '../../tests/e2e/firstVisit';
import { spawnServer } from '../../tests/server/process';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const kib = (n: number) => (n / 1024).toFixed(1);

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-ui-'));
  const server = spawnServer({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD: 'bench-password-123' }, [
    path.resolve(__dirname, '../../scripts/start.mjs'),
  ]);
  const { url, proc } = await server.ready;
  const browser = await launch();
  try {
    for (const [page, ready] of [
      ['/user/login', LOGIN_FORM_VISIBLE],
      ['/home', HOME_VISIBLE],
    ] as const) {
      const visit = await firstVisit(browser, `${url}${page}`, ready);
      console.log(`\n### ${page}\n\n| file | type | encoding | on the wire KiB | decoded KiB |\n|---|---|---|---|---|`);
      for (const d of [...visit.downloads].sort((a, b) => b.wire - a.wire)) {
        console.log(`| ${d.path} | ${d.type} | ${d.encoding} | ${kib(d.wire)} | ${kib(d.decoded)} |`);
      }
      console.log(
        `| **total (${visit.downloads.length} files)** | | | **${kib(visit.wire)}** | |\n` +
          `| **JavaScript** | | | **${kib(visit.jsWire)}** | **${kib(visit.jsDecoded)}** |`,
      );
    }
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++)
      times.push((await firstVisit(browser, `${url}/user/login`, LOGIN_FORM_VISIBLE)).readyMs);
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(
      `\nlogin form visible (cold cache, ${RUNS} runs): median ${median.toFixed(0)} ms` +
        ` [${times.map((t) => t.toFixed(0)).join(', ')}]`,
    );
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
