/**
 * `npm run bench:ui-size`: what a first visit to /user/login and /home downloads (bytes on the wire
 * and JavaScript, raw and as sent), measured in Chromium with a cold cache against `npm start`'s build,
 * and the time until the login form is visible (median of 5 cold visits). The same measurement backs
 * the budget test in the e2e leg (tests/e2e/budget.test.ts).
 *
 * Side by side: with BENCH_COMPARE_DIR set to another single-page app's build (its index.html and
 * assets; Ant Design Pro's `dist/`, say), that build is precompressed and served by the portal's own
 * static plugin (brotli or gzip, index.html for unknown paths, 404 for /api), and its login page
 * (BENCH_COMPARE_PATH, default /user/login) is visited in turn with the portal's, until the element
 * BENCH_COMPARE_READY (default #username) is on screen. Both medians and their ratio are printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { precompress } from '../../scripts/precompress.mjs';
import ui from '../../server/plugins/ui';
import { launch } from '../../tests/e2e/browser';
import { firstVisit, HOME_VISIBLE, LOGIN_FORM_VISIBLE, SELECTOR_VISIBLE } from '../../tests/e2e/firstVisit';
import { spawnServer } from '../../tests/server/process';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const kib = (n: number) => (n / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Serves a copy of `dir`, precompressed, on 127.0.0.1 at a free port. */
async function serveOther(dir: string) {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-other-'));
  fs.cpSync(dir, copy, { recursive: true });
  precompress(copy);
  const app = Fastify();
  // The portal's own static serving (server/plugins/ui.ts): precompressed files, the same caching,
  // index.html for client routes, a JSON 404 for /api.
  await app.register(ui, { uiDir: copy });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    close: async () => {
      await app.close();
      fs.rmSync(copy, { recursive: true, force: true });
    },
  };
}

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
    const other = process.env.BENCH_COMPARE_DIR ? await serveOther(process.env.BENCH_COMPARE_DIR) : null;
    try {
      const otherPath = process.env.BENCH_COMPARE_PATH ?? '/user/login';
      const otherReady = process.env.BENCH_COMPARE_READY ?? '#username';
      const ours: number[] = [];
      const theirs: number[] = [];
      // Alternating, so a slower spell of the machine falls on both.
      for (let i = 0; i < RUNS; i++) {
        ours.push((await firstVisit(browser, `${url}/user/login`, LOGIN_FORM_VISIBLE)).readyMs);
        if (other) {
          const visit = await firstVisit(browser, `${other.url}${otherPath}`, SELECTOR_VISIBLE, {
            readyArg: otherReady,
          });
          theirs.push(visit.readyMs);
          if (i === 0)
            console.log(
              `\n${process.env.BENCH_COMPARE_DIR}${otherPath}: ${kib(visit.wire)} KiB on the wire, ${kib(visit.jsWire)} KiB of JavaScript (${kib(visit.jsDecoded)} decoded)`,
            );
        }
      }
      const list = (xs: number[]) => `[${xs.map((t) => t.toFixed(0)).join(', ')}]`;
      console.log(
        `\nlogin form visible (cold cache, ${RUNS} runs): median ${median(ours).toFixed(0)} ms ${list(ours)}`,
      );
      if (other) {
        console.log(
          `${process.env.BENCH_COMPARE_DIR}${otherPath} visible, same runs: median ${median(theirs).toFixed(0)} ms ${list(theirs)}\n` +
            `portal ÷ other: ${(median(ours) / median(theirs)).toFixed(2)}`,
        );
      }
    } finally {
      await other?.close();
    }
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
