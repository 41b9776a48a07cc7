/**
 * `npm run bench:lighthouse`: Lighthouse 12.2.3 (its accessibility and best-practices categories, the
 * mobile preset it defaults to) on the login page as a visitor, and on /home and the OCS overview as
 * the administrator, against `npm start`'s build on a fresh DATA_DIR. Not part of CI: Lighthouse comes
 * from the registry through npx (`npx -y lighthouse@12.2.3`; 13 wants Node 22) and drives Debian's
 * Chromium (CHROME_PATH, default /usr/bin/chromium).
 *
 * Prints each page's two scores (0-100) and every audit that cost points, with the elements it named.
 * BENCH_RUNS (default 1) runs every page that many times in turn. BENCH_LIGHTHOUSE_OUT keeps the JSON
 * reports in that folder.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer } from '../../tests/server/process';

const LIGHTHOUSE = 'lighthouse@12.2.3';
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const CATEGORIES = ['accessibility', 'best-practices'] as const;
const ADMIN_PASSWORD = 'bench-password-123';

interface AuditResult {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  details?: { items?: { node?: { snippet?: string; selector?: string }; description?: string; source?: unknown }[] };
}
interface Report {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, AuditResult>;
}

/** Logs in through the API as the browser would (JSON, same origin) and returns the session cookie. */
async function sessionCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('portal_sid='));
  if (!res.ok || !cookie) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return cookie;
}

function lighthouse(url: string, outFile: string, headers: Record<string, string>): Report {
  const args = [
    '-y',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${outFile}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ...(Object.keys(headers).length ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
  ];
  const res = spawnSync('npx', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
  });
  if (res.status !== 0) throw new Error(`lighthouse exited with ${res.status} on ${url}`);
  return JSON.parse(fs.readFileSync(outFile, 'utf8')) as Report;
}

/** The audits of a category that cost points, with up to five elements or sources each. */
function losses(report: Report, category: string): string[] {
  return report.categories[category]!.auditRefs.filter((ref) => ref.weight > 0)
    .map((ref) => report.audits[ref.id]!)
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => {
      const items = (a.details?.items ?? [])
        .slice(0, 5)
        .map((i) => i.node?.snippet ?? i.node?.selector ?? i.description ?? JSON.stringify(i.source ?? i))
        .map((s) => `      ${String(s).slice(0, 160)}`);
      return [`    ${a.id}: ${a.title}`, ...items].join('\n');
    });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-lh-'));
  const outDir = process.env.BENCH_LIGHTHOUSE_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lh-out-'));
  fs.mkdirSync(outDir, { recursive: true });
  const server = spawnServer({ DATA_DIR: dataDir, DATABASE_URL: '', ADMIN_PASSWORD }, [
    path.resolve(__dirname, '../../scripts/start.mjs'),
  ]);
  const { url } = await server.ready;
  try {
    const cookie = await sessionCookie(url);
    const pages: { name: string; path: string; headers: Record<string, string> }[] = [
      { name: 'login', path: '/user/login', headers: {} },
      { name: 'home', path: '/home', headers: { Cookie: cookie } },
      { name: 'ocs-overview', path: '/OCS/overview', headers: { Cookie: cookie } },
    ];
    const rows: string[] = [];
    for (let run = 1; run <= RUNS; run++) {
      for (const page of pages) {
        const report = lighthouse(`${url}${page.path}`, path.join(outDir, `${page.name}-${run}.json`), page.headers);
        const scores = CATEGORIES.map((c) => Math.round((report.categories[c]!.score ?? 0) * 100));
        rows.push(`| ${page.path} | ${run} | ${scores.join(' | ')} |`);
        for (const c of CATEGORIES) {
          const lost = losses(report, c);
          if (lost.length) console.log(`\n${page.path} (run ${run}), ${c} lost points on:\n${lost.join('\n')}`);
        }
      }
    }
    console.log(`\n| page | run | accessibility | best practices |\n|---|---|---|---|\n${rows.join('\n')}`);
    console.log(`\nreports: ${outDir}`);
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
